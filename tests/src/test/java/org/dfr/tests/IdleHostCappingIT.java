package org.dfr.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.dfr.jacobi.BlockDecomposition;
import org.dfr.jacobi.FieldDigest;
import org.dfr.jacobi.JacobiKernel;
import org.dfr.jacobi.JacobiProblem;
import org.dfr.jacobi.SequentialJacobi;
import org.dfr.harness.RunConfig;
import org.dfr.harness.Runner;
import org.dfr.harness.Mode;
import org.dfr.harness.RunReport;
import org.dfr.recovery.FaultPlan;
import org.dfr.recovery.IdleRankListener;
import org.dfr.recovery.ResilientRun;
import org.dfr.recovery.Strategy;
import org.dfr.recovery.power.IdleHostCapping;
import org.dfr.runtime.RunOutcome;
import org.dfr.runtime.RunSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;
import org.slf4j.LoggerFactory;

/**
 * Frequency caps wired into a DFR recovery, on a fake sysfs tree per simulated host.
 *
 * <pre>
 * 2 x 4 ranks, 2 per host; rank 1 dies at the start of iteration 4 (checkpoint 0):
 *   host 0 = {0,1}  rank 0 adopts partition 1      busy
 *   host 1 = {2,3}  both in the cone                busy
 *   host 2 = {4,5}  5 in the cone, 4 idle           busy (one rank works)
 *   host 3 = {6,7}  both idle                       capped during the recovery
 * </pre>
 */
@Isolated // starts rank processes
class IdleHostCappingIT {

    private static final long MIN_KHZ = 800_000;
    private static final long MAX_KHZ = 3_600_000;

    @TempDir
    Path tmp;

    private static final String POLICY = "sys/devices/system/cpu/cpufreq/policy0";

    private Path fakeHost(int host) throws IOException {
        Path dir = tmp.resolve("sysfs/host" + host).resolve(POLICY);
        Files.createDirectories(dir);
        write(dir, "affected_cpus", "0");
        write(dir, "related_cpus", "0");
        write(dir, "cpuinfo_min_freq", Long.toString(MIN_KHZ));
        write(dir, "cpuinfo_max_freq", Long.toString(MAX_KHZ));
        write(dir, "scaling_min_freq", Long.toString(MIN_KHZ));
        write(dir, "scaling_max_freq", Long.toString(MAX_KHZ));
        write(dir, "scaling_cur_freq", Long.toString(MAX_KHZ));
        write(dir, "scaling_driver", "acpi-cpufreq");
        write(dir, "scaling_governor", "ondemand");
        write(dir, "scaling_available_governors", "ondemand performance powersave");
        Files.createDirectories(tmp.resolve("sysfs/host" + host).resolve("sys/devices/system/cpu/cpu0"));
        write(tmp.resolve("sysfs/host" + host).resolve("sys/devices/system/cpu"), "online", "0");
        return tmp.resolve("sysfs/host" + host);
    }

    private static void write(Path dir, String name, String value) throws IOException {
        Files.writeString(dir.resolve(name), value + "\n");
    }

    private long scalingMax(int host) {
        try {
            return Long.parseLong(Files.readString(tmp.resolve("sysfs/host" + host).resolve(POLICY)
                    .resolve("scaling_max_freq")).trim());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void when_hostIsIdleDuringDfrRecovery_then_itIsCappedUntilTheResumeBarrier() throws IOException {
        for (int h = 0; h < 4; h++) {
            fakeHost(h);
        }
        RunSpec spec = new RunSpec(8, 10, 10, 2, 0);
        JacobiProblem problem = new JacobiProblem(37, 29);
        BlockDecomposition dec = new BlockDecomposition(problem, 2, 4);
        Map<Integer, Long> seenBeforeLift = new ConcurrentHashMap<>();
        RunOutcome outcome;
        try (IdleHostCapping capping = new IdleHostCapping(spec, tmp.resolve("sysfs"), Set.of(0, 1, 2, 3),
                tmp.resolve("journals"))) {
            // observes each host's limit at the moment one of its ranks has work again, before the lift;
            // serialised because a plain file (unlike sysfs) can be read half-written
            IdleRankListener observing = new IdleRankListener() {
                @Override
                public synchronized void rankIdle(int rank) {
                    capping.rankIdle(rank);
                }

                @Override
                public synchronized void rankBusy(int rank) {
                    seenBeforeLift.putIfAbsent(spec.hostOf(rank), scalingMax(spec.hostOf(rank)));
                    capping.rankBusy(rank);
                }
            };
            outcome = new ResilientRun(new JacobiKernel(dec), spec)
                    .strategy(Strategy.DFR)
                    .faults(new FaultPlan(List.of(new FaultPlan.Kill(1, 4, FaultPlan.Point.ITERATION_START)), Set.of()))
                    .idleListener(observing)
                    .runEmbedded();
            assertThat(capping.summary()).extractingByKey("host3").asString().contains("capEvents=1");
        }
        SequentialJacobi seq = new SequentialJacobi(problem);
        seq.iterate(10);
        assertThat(FieldDigest.ofPartitions(dec, outcome.finalStates())).isEqualTo(seq.digest());
        assertThat(seenBeforeLift.get(3)).as("idle host 3 during recovery").isEqualTo(MIN_KHZ);
        assertThat(seenBeforeLift.get(2)).as("host 2 has a busy rank").isEqualTo(MAX_KHZ);
        for (int h = 0; h < 4; h++) {
            assertThat(scalingMax(h)).as("host %d after the run", h).isEqualTo(MAX_KHZ);
        }
        assertThat(tmp.resolve("journals")).isEmptyDirectory();
    }

    /*
     *   2x4 grid, two ranks per host, one spare (rank 8, host 4):
     *     host0 = {0, 1}   rank 1 killed at the start of iteration 7, checkpoint at 5: m = 1, the cone is {1}
     *     the spare adopts partition 1; rank 0 waits idle beside its dead neighbour
     *   host0 is idle and is capped (before: a dead rank never said "idle", and host0 stayed uncapped)
     */
    @Test
    void when_theDeadRanksHostHasOnlyIdleSurvivors_then_itIsCappedToo() throws IOException {
        for (int h = 0; h < 5; h++) {
            fakeHost(h);
        }
        RunSpec spec = new RunSpec(8, 10, 5, 2, 1);
        JacobiProblem problem = new JacobiProblem(37, 29);
        BlockDecomposition dec = new BlockDecomposition(problem, 2, 4);
        RunOutcome outcome;
        Map<String, Object> summary;
        try (IdleHostCapping capping = new IdleHostCapping(spec, tmp.resolve("sysfs"), Set.of(0, 1, 2, 3, 4),
                tmp.resolve("journals"))) {
            outcome = new ResilientRun(new JacobiKernel(dec), spec)
                    .strategy(Strategy.DFR)
                    .faults(new FaultPlan(List.of(new FaultPlan.Kill(1, 7, FaultPlan.Point.ITERATION_START)), Set.of()))
                    .idleListener(capping)
                    .runEmbedded();
            capping.liftRemaining();
            summary = capping.summary();
        }
        SequentialJacobi seq = new SequentialJacobi(problem);
        seq.iterate(10);
        assertThat(FieldDigest.ofPartitions(dec, outcome.finalStates())).isEqualTo(seq.digest());
        assertThat(summary).extractingByKey("host0").asString().contains("capEvents=1");
        assertThat(summary).extractingByKey("host1").asString().contains("capEvents=1");
        for (int h = 0; h < 5; h++) {
            assertThat(scalingMax(h)).as("host %d after the run", h).isEqualTo(MAX_KHZ);
        }
    }

    @Test
    void when_aHostCannotCap_then_theReportSaysWhy() throws IOException {
        Path noCpufreq = Files.createDirectories(tmp.resolve("bare/sys"));

        try (IdleHostCapping capping = new IdleHostCapping(new RunSpec(2, 10, 10, 2, 0), noCpufreq.getParent(),
                Set.of(0), tmp.resolve("journals"))) {
            @SuppressWarnings("unchecked")
            Map<String, Object> host0 = (Map<String, Object>) capping.summary().get("host0");
            assertThat(host0).containsEntry("canCap", false);
            assertThat((String) host0.get("reason")).contains("no cpufreq");
        }
    }

    @Test
    void when_severalHostsShareOneTree_then_theUserIsWarnedThatCappingOneCapsThemAll() throws IOException {
        Path shared = fakeHost(0); // one tree, no host0/ host1/ below it: both simulated hosts are its CPUs
        Logger log = (Logger) LoggerFactory.getLogger(IdleHostCapping.class);
        ListAppender<ILoggingEvent> lines = new ListAppender<>();
        lines.start();
        log.addAppender(lines);
        try {
            try (IdleHostCapping capping = new IdleHostCapping(new RunSpec(4, 10, 10, 2, 0), shared, Set.of(0, 1),
                    tmp.resolve("journals"))) {
                assertThat(lines.list).extracting(ILoggingEvent::getFormattedMessage).anySatisfy(m -> assertThat(m)
                        .contains("hosts [0, 1] share the sysfs tree " + shared)
                        .contains("capping an idle host caps the CPUs its busy neighbours run on as well"));
            }
            lines.list.clear();
            fakeHost(1);
            try (IdleHostCapping perHost = new IdleHostCapping(new RunSpec(4, 10, 10, 2, 0), tmp.resolve("sysfs"),
                    Set.of(0, 1), tmp.resolve("journals"))) {
                assertThat(lines.list).extracting(ILoggingEvent::getFormattedMessage)
                        .noneMatch(m -> m.contains("share the sysfs tree"));
            }
        } finally {
            log.detachAppender(lines);
        }
    }

    @Test
    void when_aRespawnedRankReportsOnItsHost_then_itTakesItsPredecessorsPlaceThere() throws IOException {
        // 8 ranks, 2 per host; rank 3 (host 1) died and rank 11 was started in its place
        for (int h = 0; h < 4; h++) {
            fakeHost(h);
        }
        RunSpec spec = new RunSpec(8, 10, 10, 2, 0);
        try (IdleHostCapping capping = new IdleHostCapping(spec, tmp.resolve("sysfs"), Set.of(0, 1, 2, 3),
                tmp.resolve("journals"))) {
            capping.rankBusy(11);
            capping.rankIdle(2);
            assertThat(scalingMax(1)).as("rank 11 is busy").isEqualTo(MAX_KHZ);

            capping.rankIdle(11);

            // host 1 is now ranks {2, 11}: both idle, so it is capped (rank 3, dead, no longer counts)
            assertThat(scalingMax(1)).isEqualTo(MIN_KHZ);
            capping.rankBusy(11);
            assertThat(scalingMax(1)).isEqualTo(MAX_KHZ);
        }
        assertThat(tmp.resolve("journals")).isEmptyDirectory();
    }

    @Test
    void when_runWithCapIdleHosts_then_reportShowsCappingAndNoMeasuredEnergy() throws IOException {
        for (int h = 0; h < 4; h++) {
            fakeHost(h);
        }
        RunConfig config = RunConfig.of(2, 4, 37, 29, 10, 10)
                .withFaults(List.of(new FaultPlan.Kill(1, 4, FaultPlan.Point.ITERATION_START)), List.of(), Set.of())
                .withCapping(true, tmp.resolve("sysfs"), tmp.resolve("journals"));
        RunReport report = new Runner().run(config);

        assertThat(report.energy()).containsEntry("source", "none");
        assertThat(report.energy().get("frequencyCapping").toString()).contains("host3");
        for (int h = 0; h < 4; h++) {
            assertThat(scalingMax(h)).isEqualTo(MAX_KHZ);
        }
    }

    @Test
    void when_anEmbeddedRunHasNoFailure_then_itsPowerTimelinePlacesTheLoopWhereTheRanksStarted() {
        RunReport report = new Runner().run(RunConfig.of(2, 4, 37, 29, 10, 10));

        // no recovery to anchor on: the loop was placed wallMillis before the end, counting the shutdown as loop time
        assertThat(report.energy()).extractingByKey("notes").asString().doesNotContain("wallMillis before the end");
        @SuppressWarnings("unchecked")
        Map<String, Object> timeline = (Map<String, Object>) report.energy().get("timeline");
        assertThat((Double) timeline.get("loopEndSeconds")).isLessThanOrEqualTo((Double) timeline.get("endSeconds"));
        assertThat((Double) timeline.get("loopStartSeconds")).isPositive();
    }

    /**
     * <pre>
     *   ranks start | checkpoint 0 (a barrier, every rank's copies) | 3 iterations | kill 1@4 ... resume | 36 iterations
     *               ^ where the loop was placed                      ^ where it starts
     * </pre>
     * Placed where the ranks started, the loop ended checkpoint 0's time too early, so its end was pushed to the
     * resume: the 36 iterations after the recovery were counted as finish at idle power (an energy researcher's
     * walk-through: "compute x2, finish x10" on the host's samples).
     */
    @Test
    @SuppressWarnings("unchecked")
    void when_anEmbeddedRunRecovers_then_itsPowerTimelineKeepsTheIterationsAfterTheResumeInTheLoop() {
        RunReport report = new Runner().run(RunConfig.of(2, 4, 512, 512, 40, 40)
                .withFaults(List.of(FaultPlan.parseKill("1@4")), List.of(), Set.of()));

        Map<String, Object> timeline = (Map<String, Object>) report.energy().get("timeline");
        double loopStart = (Double) timeline.get("loopStartSeconds");
        double loopEnd = (Double) timeline.get("loopEndSeconds");
        Map<String, Object> recovery = ((List<Map<String, Object>>) timeline.get("recoveries")).get(0);
        assertThat(recovery.get("derivedFrom")).isEqualTo("idle/busy events");
        // the loop as long as the ranks measured it, not stretched to reach the resume
        assertThat(loopEnd - loopStart).isCloseTo(report.loopMillis() / 1000.0, within(0.002));
        assertThat((Double) recovery.get("resumeSeconds")).isLessThan(loopEnd);
    }

    /*
     * A recovery with one JVM per rank: the ranks of a host live in different processes, and the launcher caps a
     * host only while all of them report idle, lifting the cap before any computes. 1x4 line, two ranks per host,
     * rank 3 killed at the start of iteration 3 (c = 0, m = 2):
     *
     *   host:             0                 1
     *   partition/rank:   0        1        2        3 (killed)
     *   copies of 3:      on host 0 (the backups go to another host)
     *   cone, iteration 1:                  2        3        (iteration 2: 3)
     *
     * Rank 2 computes in the cone anyway and adopts partition 3, although a rank of host 0 holds its copy: host 0
     * idles for the whole recovery and is capped once.
     */
    @Test
    @SuppressWarnings("unchecked")
    void when_processesRunCapsIdleHosts_then_theAdopterIsOnTheBusyHostAndTheOtherIsCappedOnceAndRestored()
            throws IOException {
        for (int h = 0; h < 2; h++) {
            fakeHost(h);
        }
        RunConfig config = RunConfig.of(1, 4, 29, 37, 8, 8).withMode(Mode.PROCESSES)
                .withFaults(List.of(new FaultPlan.Kill(3, 3, FaultPlan.Point.ITERATION_START)), List.of(), Set.of())
                .withCapping(true, tmp.resolve("sysfs"), tmp.resolve("journals"));

        // C1 only: the rank JVMs start faster, and the tiny grid needs no C2
        RunReport report = new Runner().rankJvmOptions(List.of("-XX:TieredStopAtLevel=1")).run(config);

        SequentialJacobi seq = new SequentialJacobi(new JacobiProblem(29, 37));
        seq.iterate(8);
        assertThat(report.fieldSha256()).isEqualTo(seq.digest());
        RunReport.Recovery recovery = report.recoveries().get(0);
        assertThat(recovery.adoptions()).containsExactly("3:2");
        assertThat(recovery.idleRanks()).containsExactly(0, 1);
        Map<String, Object> hosts = (Map<String, Object>) report.energy().get("frequencyCapping");
        assertThat((Map<String, Object>) hosts.get("host0")).as("host 0: ranks 0 and 1 idle")
                .containsEntry("canCap", true).containsEntry("capEvents", 1L).containsEntry("liftEvents", 1L);
        assertThat((Map<String, Object>) hosts.get("host1")).as("host1").containsEntry("capEvents", 0L);
        for (int h = 0; h < 2; h++) {
            assertThat(scalingMax(h)).as("host %d after the run", h).isEqualTo(MAX_KHZ);
        }
        assertThat(tmp.resolve("journals")).isEmptyDirectory();
    }
}
