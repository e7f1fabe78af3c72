package org.dfr.harness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A report written by a rank process names the user's command, which only its launcher knows. */
class ProvenanceTest {

    private static final Provenance OF_RANK_0 = new Provenance("0.1.0", "abc", true, "jvm", "os", "cpu", "host1",
            "2026-11-27T04:00:00Z", List.of("rank", "--config", "/tmp/run.json", "--rank", "0"), 2, null);

    @AfterEach
    void forgetTheCommandLine() {
        Provenance.recordCommandLine(List.of());
    }

    @Test
    void when_theLauncherRanFromTheCommandLine_then_itsArgumentsReplaceTheRanks_andTheRanksMachineStays() {
        Provenance.recordCommandLine(List.of("run", "--mode", "processes", "--cells", "64x64"));

        Provenance p = OF_RANK_0.withLauncherCommandLine();

        assertThat(p.commandLine()).containsExactly("run", "--mode", "processes", "--cells", "64x64");
        assertThat(p.hostName()).isEqualTo("host1");
        assertThat(p.gitDirty()).isTrue();
        assertThat(p.startedAt()).isEqualTo("2026-11-27T04:00:00Z");
        // the launcher's, read when its command line was recorded (the file changes every 5 s: no second read)
        if (Provenance.readLoadAverage() != null) {
            assertThat(p.loadAverageAtStart()).hasSize(3);
        }
    }

    @Test
    void when_onLinux_then_theLoadAverageIsTheMachinesThreeFigures() {
        List<Double> load = Provenance.readLoadAverage();
        assumeTrue(load != null, "no /proc/loadavg");

        assertThat(load).hasSize(3).allSatisfy(l -> assertThat(l).isNotNegative());
        assertThat(Provenance.current().cpus()).isEqualTo(Runtime.getRuntime().availableProcessors());
    }

    @Test
    void when_theLauncherRanFromTheApi_then_theReportIsLeftAsTheRankWroteIt() {
        assertThat(OF_RANK_0.withLauncherCommandLine()).isEqualTo(OF_RANK_0);
    }

    @Test
    void when_theBuildCouldNotReadGit_then_thePlaceholderReadsUnknown() {
        Properties build = new Properties();
        build.setProperty("git.commit", "${git.commit.id}");
        build.setProperty("git.dirty", "false");

        assertThat(Provenance.filtered(build, "git.commit")).isEqualTo("unknown");
        assertThat(Provenance.filtered(build, "git.dirty")).isEqualTo("false");
        assertThat(Provenance.filtered(build, "version")).isEqualTo("unknown");
    }

    @Test
    void when_thisBuildMadeTheClasses_then_theCommitIsAHashAndItsTreeStateIsKnown() {
        // built from a git checkout (the project root is the module's parent); a source tarball says "unknown"
        assumeTrue(Files.exists(Path.of("..", ".git")), "not a git checkout");
        Provenance p = Provenance.current();

        assertThat(p.gitCommit()).matches("[0-9a-f]{40}");
        assertThat(p.gitDirty()).isNotNull();
    }
}
