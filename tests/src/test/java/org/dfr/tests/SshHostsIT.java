package org.dfr.tests;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.dfr.cli.DfrMain;
import org.dfr.harness.Campaign;
import org.dfr.harness.RunConfig;
import org.dfr.harness.RunReport;
import org.dfr.harness.RunReports;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;
import picocli.CommandLine;

/**
 * {@code dfr run --hosts} starts every rank with {@code ssh HOST 'java ... dfr rank ...'}. Here "ssh" is a
 * script that runs the command string with {@code sh -c}, as sshd does in the login shell, and logs the host;
 * each simulated host has its own loopback address, so every rank really binds only its host's address:
 * <pre>
 *   127.0.0.2: rank 0   127.0.0.3: rank 1   127.0.0.4: rank 2   127.0.0.5: rank 3   (2x2 ranks, 1 per host)
 *   rank 1 SIGKILLed at iteration 4 -> recovery, digest of the failure-free run
 * </pre>
 */
@Isolated // starts rank processes
class SshHostsIT {

    @Test
    void when_ranksAreStartedOverSsh_then_eachRunsOnItsHostAndTheRunRecoversBitExactly(@TempDir Path tmp) throws Exception {
        Path sshLog = tmp.resolve("ssh.log");
        Path fakeSsh = tmp.resolve("fake-ssh");
        Files.writeString(fakeSsh, "#!/bin/sh\n"
                + "# ssh HOST COMMAND: run COMMAND as sshd would, in a shell\n"
                + "echo \"$1\" >> '" + sshLog + "'\n"
                + "exec sh -c \"$2\"\n");
        Files.setPosixFilePermissions(fakeSsh, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path shared = tmp.resolve("shared");
        Path report = tmp.resolve("report.json");
        List<String> hosts = List.of("127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.5");

        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = DfrMain.commandLine();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        int code = cl.execute("run", "--hosts", String.join(",", hosts), "--ssh-command", fakeSsh.toString(),
                "--remote-java", Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--shared-dir", shared.toString(), "--ranks-grid", "2x2", "--ranks-per-host", "1", "--cells", "64x48", "--iterations", "10",
                "--checkpoint-every", "5", "--fail", "1@4", "--report", report.toString());

        assertThat(code).as(out + "\n" + err).isZero();
        RunConfig same = RunConfig.of(2, 2, 64, 48, 10, 5);
        RunReport r = RunReports.read(report);
        assertThat(r.fieldSha256()).isEqualTo(Campaign.referenceDigest(same));
        assertThat(r.mode()).isEqualTo("processes");
        assertThat(r.recoveries()).hasSize(1);
        assertThat(Files.readAllLines(sshLog)).containsExactlyInAnyOrderElementsOf(hosts);
        assertThat(shared.resolve("run.json")).exists();
        assertThat(shared.resolve("rank-3.log")).exists();
    }
}
