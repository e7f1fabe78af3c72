package org.dfr.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.dfr.cli.DfrMain;
import org.dfr.harness.ProcessLauncher;
import org.dfr.power.sysfs.FakeCpufreqTree;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * The launcher of a processes-mode run is SIGKILLed while it holds an idle host capped:
 * <pre>
 *   dfr run (launcher, caps host 3 through the fake tree) --SIGKILL--> gone
 *     |-- rank 0..7 processes        notice the launcher is gone and exit
 *   dfr kernels (the next command)   finds the launcher's journal, restores host 3, says so
 * </pre>
 */
@Isolated // starts rank processes
class LauncherKillIT {

    private static final long MIN_KHZ = 1_200_000;
    private static final long MAX_KHZ = 2_600_000;

    private final List<ProcessHandle> started = new ArrayList<>();

    @TempDir
    Path tmp;

    @AfterEach
    void killLeftovers() {
        for (ProcessHandle p : started) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
    }

    private ProcessBuilder dfr(Path home, Path log, String... args) {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Duser.home=" + home, "-Djava.net.preferIPv4Stack=true", "-Dhazelcast.logging.type=slf4j",
                // the killed launcher cannot delete its shared-memory directory: in the test's, not /dev/shm
                "-D" + ProcessLauncher.SHARED_MEMORY_ROOT_PROPERTY + "=" + tmp,
                // the rank JVMs' class data archive of the other tests (the run's own home has none)
                "-Ddfr.cdsDir=" + Path.of(System.getProperty("user.home"), ".dfr", "cds"),
                "-cp", System.getProperty("java.class.path"), DfrMain.class.getName()));
        cmd.addAll(List.of(args));
        return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
    }

    private static long maxFreq(Path sysfs, int host) throws IOException {
        String text = Files.readString(sysfs.resolve("host" + host).resolve(FakeCpufreqTree.POLICY)
                .resolve("scaling_max_freq")).trim();
        // the fake tree's files are replaced whole (NioSysfsFileSystem); an empty read is still not a frequency
        return text.isEmpty() ? -1 : Long.parseLong(text);
    }

    @Test
    void when_theLauncherIsKilledWhileAHostIsCapped_then_ranksExitAndTheNextCommandRestoresTheHost() throws Exception {
        Path home = Files.createDirectories(tmp.resolve("home"));
        Path sysfs = FakeCpufreqTree.create(tmp.resolve("sysfs"), 4, MIN_KHZ, MAX_KHZ);
        // host 3 (ranks 6 and 7, outside the cone) stays capped for the recovery (m = 3), hundreds of ms at any grid
        // (agreement, checkpoint loads, three levels); 6144x6144 until session 33 took 53 s of a verify
        Process launcher = dfr(home, tmp.resolve("run.log"), "run", "--mode", "processes", "--ranks-grid", "2x4",
                "--cells", "2048x2048", "--iterations", "40", "--checkpoint-every", "40", "--fail", "1@4",
                "--cap-idle-hosts", "--sysfs-root", sysfs.toString()).start();
        started.add(launcher.toHandle());

        await("host 3 capped during the recovery").atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(5))
                .until(() -> !launcher.isAlive() || maxFreq(sysfs, 3) == MIN_KHZ);
        assertThat(launcher.isAlive()).as("the run ended before host 3 was capped: " + Files.readString(tmp.resolve("run.log")))
                .isTrue();
        List<ProcessHandle> ranks = launcher.descendants().toList();
        assertThat(ranks).as("rank processes").isNotEmpty();
        launcher.destroyForcibly(); // SIGKILL: no shutdown hook lifts the cap
        assertThat(launcher.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(maxFreq(sysfs, 3)).as("nobody lifted the cap").isEqualTo(MIN_KHZ);

        await("every rank process exits once its launcher is gone").atMost(Duration.ofSeconds(20))
                .until(() -> ranks.stream().noneMatch(ProcessHandle::isAlive));

        Path log = tmp.resolve("next.log");
        Process next = dfr(home, log, "kernels").start();
        started.add(next.toHandle());
        assertThat(next.waitFor(60, TimeUnit.SECONDS)).isTrue();
        String said = Files.readString(log);
        assertThat(next.exitValue()).as(said).isZero();
        assertThat(said).contains("dfr: process " + launcher.pid() + " was killed while it capped the CPU frequency")
                .contains("restored the original limits");
        for (int host = 0; host < 4; host++) {
            assertThat(maxFreq(sysfs, host)).as("host %d", host).isEqualTo(MAX_KHZ);
        }
        try (var journals = Files.list(home.resolve(".dfr"))) {
            assertThat(journals.filter(f -> f.getFileName().toString().startsWith("freq-journal"))).isEmpty();
        }
    }
    /*
     *   dfr run --mode processes (8 rank JVMs, a long loop) --SIGTERM (Ctrl-C alike) once it iterates--> the launcher
     *   kills its ranks and says once that it was interrupted; the exits it caused are no deaths (it printed
     *   "rank N was SIGKILLed though the fault plan does not kill it; the run recovers" eight times, then "no rank
     *   wrote the report")
     */
    @Test
    void when_aProcessesRunIsInterrupted_then_itSaysSoAndCountsNoRankAsDead() throws Exception {
        Path home = Files.createDirectories(tmp.resolve("home"));
        Path log = tmp.resolve("run.log");
        String said = terminatedOnceItSays("first iteration: ", log, dfr(home, log, "run", "--mode", "processes",
                "--ranks-grid", "2x4", "--cells", "256x256", "--iterations", "1000000"));
        // the "interrupted" line comes from a shutdown hook (the JVM may halt once its hooks are done, before the main
        // thread prints anything: so it did in one full verify), and once, though the launcher fails with it too
        assertThat(said).doesNotContain("though the fault plan does not kill it")
                .doesNotContain("no rank wrote the report")
                .doesNotContain("the run failed");
        assertThat(said.lines().filter(l -> l.startsWith("dfr run: interrupted (SIGINT or SIGTERM)"))).as(said)
                .hasSize(1);
    }

    /*
     *   dfr run (embedded, caps host 3 through the fake tree) --SIGTERM (Ctrl-C alike)--> its shutdown hook lifts
     *   the cap and restores every limit before the JVM exits; no journal is left for the next command
     */
    @Test
    void when_aRunIsInterruptedWhileAHostIsCapped_then_itRestoresTheHostBeforeItExits() throws Exception {
        Path home = Files.createDirectories(tmp.resolve("home"));
        Path sysfs = FakeCpufreqTree.create(tmp.resolve("sysfs"), 4, MIN_KHZ, MAX_KHZ);
        Path log = tmp.resolve("run.log");
        Process run = dfr(home, log, "run", "--ranks-grid", "2x4", "--cells", "2048x2048", "--iterations", "40",
                "--checkpoint-every", "40", "--fail", "1@4", "--cap-idle-hosts", "--sysfs-root", sysfs.toString())
                .start();
        started.add(run.toHandle());

        await("host 3 capped during the recovery").atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(5))
                .until(() -> !run.isAlive() || maxFreq(sysfs, 3) == MIN_KHZ);
        assertThat(run.isAlive()).as("the run ended before host 3 was capped: " + Files.readString(log)).isTrue();
        run.destroy(); // SIGTERM
        assertThat(run.waitFor(60, TimeUnit.SECONDS)).as("the interrupted run exits").isTrue();

        for (int host = 0; host < 4; host++) {
            assertThat(maxFreq(sysfs, host)).as("host %d after the interrupted run", host).isEqualTo(MAX_KHZ);
        }
        assertThat(Files.readString(log)).contains("interrupted: lifting the frequency caps of this run");
        // an embedded run stopped by a signal used to exit without a word of its own (session 42's gaps)
        assertThat(Files.readString(log).lines().filter(l -> l.startsWith("dfr run: interrupted (SIGINT or SIGTERM)")))
                .as(Files.readString(log)).singleElement().asString().contains("before the run finished: no digest");
        assertThat(run.exitValue()).as("128 + SIGTERM").isEqualTo(143);
        if (Files.isDirectory(home.resolve(".dfr"))) {
            try (var journals = Files.list(home.resolve(".dfr"))) {
                assertThat(journals.filter(f -> f.getFileName().toString().startsWith("freq-journal"))).isEmpty();
            }
        }
    }

    /*
     *   dfr experiment (40 tiny runs) --SIGTERM (Ctrl-C alike) after its second run--> one line saying how many runs
     *   finished, that no summary was written and where their samples are; only a logger line about caps said anything
     */
    @Test
    void when_anExperimentIsInterrupted_then_itSaysWhatIsLeft() throws Exception {
        Path home = Files.createDirectories(tmp.resolve("home"));
        Path out = tmp.resolve("exp");
        Path log = tmp.resolve("experiment.log");
        String said = terminatedOnceItSays("[2/40]", log, dfr(home, log, "experiment", "--cells", "32x32",
                "--ranks-grid", "1x2", "--iterations", "6", "--fail", "1@3", "--repetitions", "20", "--warmups", "0",
                "--variants", "global,dfr", "--idle-power-watts", "40", "--busy-power-watts", "120",
                "--out", out.toString()));

        assertThat(said).containsPattern("dfr experiment: interrupted after [0-9]+ of 40 runs: no runs.csv"
                + " or summary; the finished runs' samples are in " + Pattern.quote(
                        out.resolve("samples.csv.part").toString()));
        assertThat(out.resolve("summary.json")).doesNotExist();
        assertThat(out.resolve("samples.csv.part")).exists();
    }

    /*
     *   dfr campaign (50 small trials, --report) --SIGTERM (Ctrl-C alike) after its first trial--> the trials it
     *   finished are its report, stopped early as "interrupted", and one line says so (it used to exit 143 without a
     *   word or a report: an hour of trials lost)
     */
    @Test
    void when_aCampaignIsInterrupted_then_theTrialsItFinishedAreItsReport() throws Exception {
        Path home = Files.createDirectories(tmp.resolve("home"));
        Path report = tmp.resolve("campaign.json");
        Path log = tmp.resolve("campaign.log");
        String said = terminatedOnceItSays("trial    0 ", log, dfr(home, log, "campaign", "--mode", "embedded",
                "--seed", "5", "--trials", "50", "--report", report.toString()));

        long printed = said.lines().filter(l -> l.startsWith("trial ")).count();
        assertThat(said).contains("dfr campaign: interrupted (SIGINT or SIGTERM) after " + printed + " finished trial")
                .contains("they are in " + report);
        JsonNode written = new ObjectMapper().readTree(report.toFile());
        assertThat(written.get("stoppedEarly").asBoolean()).isTrue();
        assertThat(written.get("stopReason").asText()).isEqualTo("interrupted (SIGINT or SIGTERM)");
        assertThat(written.get("results")).as("every trial the campaign printed, none more").hasSize((int) printed);
        assertThat(report.resolveSibling("campaign.csv")).exists();
    }

    /**
     * Starts {@code command}, sends it SIGTERM (as Ctrl-C would end it) once {@code log} contains {@code marker}, and
     * returns what it said; fails unless it was still running then and exited with 143 (128 + SIGTERM).
     */
    private String terminatedOnceItSays(String marker, Path log, ProcessBuilder command) throws Exception {
        Process p = command.start();
        started.add(p.toHandle());
        await("\"" + marker + "\" in " + log).atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(100))
                .until(() -> !p.isAlive() || Files.readString(log).contains(marker));
        assertThat(p.isAlive()).as("it ended before it was interrupted: " + Files.readString(log)).isTrue();
        p.destroy(); // SIGTERM
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("the interrupted command exits").isTrue();
        String said = Files.readString(log);
        assertThat(p.exitValue()).as(said).isEqualTo(143);
        return said;
    }
}
