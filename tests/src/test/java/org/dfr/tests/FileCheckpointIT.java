package org.dfr.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.dfr.harness.Campaign;
import org.dfr.harness.FileCheckpoints;
import org.dfr.harness.Mode;
import org.dfr.harness.RunConfig;
import org.dfr.harness.RunReport;
import org.dfr.harness.Runner;
import org.dfr.recovery.FaultPlan;
import org.dfr.runtime.CheckpointFile;
import org.dfr.runtime.ClusterSettings;
import org.dfr.runtime.DiskCheckpoints;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * The file level of checkpoints ({@code --checkpoint-dir}, {@code --restart-from}): a run restarted from
 * the newest complete file checkpoint gives the digest of a run without failures; a corrupt newest
 * file makes the restart fall back to the previous iteration, and say so.
 */
@Isolated // starts rank processes
class FileCheckpointIT {

    /** 2x2 ranks, checkpoints every 5 iterations, a file level every 2 of them: iterations 10, 20, 30. */
    private static final RunConfig CONFIG = RunConfig.of(2, 2, 24, 20, 40, 5);

    @TempDir
    Path dir;

    @Test
    void when_restartedFromTheFileLevel_then_theDigestIsTheFailureFreeOne() throws Exception {
        String reference = Campaign.referenceDigest(CONFIG);
        RunReport written = new Runner().fileCheckpoints(CONFIG, dir, 2, null).run(CONFIG);
        assertThat(written.fieldSha256()).isEqualTo(reference);
        assertThat(written.restartedFromIteration()).isNull();
        String key = FileCheckpoints.runKey(CONFIG);
        assertThat(CheckpointFile.iterations(CheckpointFile.runDirectory(dir, key))).contains(30, 20);

        RunReport restarted = new Runner().fileCheckpoints(CONFIG, null, 1, dir).run(CONFIG);
        assertThat(restarted.restartedFromIteration()).isEqualTo(30);
        assertThat(restarted.fieldSha256()).isEqualTo(reference);
        assertThat(restarted.iterationsRun()).isEqualTo(40);

        // the newest iteration's file of partition 1 corrupted: the previous complete one is used
        Path corrupt = CheckpointFile.path(dir, key, 30, 1);
        byte[] bytes = Files.readAllBytes(corrupt);
        bytes[bytes.length / 2] ^= 0x40;
        Files.write(corrupt, bytes);
        List<String> messages = new ArrayList<>();
        DiskCheckpoints disk = FileCheckpoints.resolve(CONFIG, null, 1, dir, messages::add);
        assertThat(disk.restartIteration()).isEqualTo(20);
        assertThat(messages).singleElement().asString()
                .contains("iteration 30").contains(corrupt.toString()).contains("checksum mismatch");
        // and a failure after the restart is recovered from the in-memory checkpoint as usual
        RunConfig withKill = CONFIG.withFaults(List.of(new FaultPlan.Kill(1, 27, FaultPlan.Point.ITERATION_START)),
                List.of(), Set.of());
        RunReport fellBack = new Runner(new ClusterSettings().diskCheckpoints(disk)).run(withKill);
        assertThat(fellBack.restartedFromIteration()).isEqualTo(20);
        assertThat(fellBack.recoveries()).hasSize(1);
        assertThat(fellBack.fieldSha256()).isEqualTo(reference);
        // three of four ranks die before the restart's first checkpoint after 20: the copies of checkpoint 20 died
        // with them, and rank 0 rebuilds their partitions from the files the run restarted from
        RunConfig threeDie = CONFIG.withFaults(List.of(new FaultPlan.Kill(1, 22, FaultPlan.Point.ITERATION_START),
                new FaultPlan.Kill(2, 22, FaultPlan.Point.ITERATION_START),
                new FaultPlan.Kill(3, 22, FaultPlan.Point.ITERATION_START)), List.of(), Set.of());
        RunReport rebuilt = new Runner(new ClusterSettings().diskCheckpoints(disk)).run(threeDie);
        assertThat(rebuilt.recoveries()).singleElement().satisfies(r -> {
            assertThat(r.checkpointIteration()).isEqualTo(20);
            assertThat(r.lostPartitions()).containsExactly(1, 2, 3);
        });
        assertThat(rebuilt.fieldSha256()).isEqualTo(reference);

        // rank processes load their partitions' files themselves
        RunReport processes = new Runner().fileCheckpoints(CONFIG, null, 1, dir).run(CONFIG.withMode(Mode.PROCESSES));
        assertThat(processes.restartedFromIteration()).isEqualTo(20);
        assertThat(processes.fieldSha256()).isEqualTo(reference);
    }

    /**
     * One backup per checkpoint, 2 ranks per host; ranks 0 and 2 die together at the start of iteration 14, and
     * partition 0's only copy of checkpoint 10 lived on rank 2:
     * <pre>
     *   2 x 4 ranks, K = 5, a file level at every checkpoint (5, 10)
     *   sum of 11:    checkpoint 10 commits; every rank starts writing its file of level 10
     *   iteration 13: rank 5 pauses 6 s after its contribution to the sum of 12 (it starts 13 early): nobody
     *                 passes 13 meanwhile; level 10 is written, and its file of partition 1 is corrupted here
     *   iteration 14: ranks 0 and 2 die: no copy of checkpoint 10 of partition 0 is left
     * </pre>
     * The pause was at iteration 12 until session 42: rank 5 then paused inside the sum of 11, so level 10 was
     * written only after the pause, two iterations before the deaths, and the recovery could read it before the test
     * corrupted it (once in a full verify of session 41), whatever the pause's length. A paused rank thread leaves
     * its member's heartbeats going: no recovery for the pause.
     * The recovery falls back to the newest complete file level: 10 fails its checksum, so 5; the result is that of a
     * run without failures.
     */
    @Test
    void when_everyCopyOfTheCheckpointIsLostAndTheNewestFileLevelIsCorrupt_then_thePreviousLevelServes()
            throws Exception {
        RunConfig clean = RunConfig.of(2, 4, 37, 29, 20, 5);
        RunConfig config = clean.withFaults(List.of(FaultPlan.Kill.pause(5, 13, 6_000),
                new FaultPlan.Kill(0, 14, FaultPlan.Point.ITERATION_START),
                new FaultPlan.Kill(2, 14, FaultPlan.Point.ITERATION_START)), List.of(), Set.of());
        String key = FileCheckpoints.runKey(config);
        Runner runner = new Runner(new ClusterSettings().checkpointBackups(1)).fileCheckpoints(config, dir, 1, null);

        CompletableFuture<RunReport> run = CompletableFuture.supplyAsync(() -> runner.run(config));
        Path corrupt = CheckpointFile.path(dir, key, 10, 1);
        await().atMost(Duration.ofSeconds(60)).until(() -> IntStream.range(0, 8)
                .allMatch(p -> Files.exists(CheckpointFile.path(dir, key, 10, p))));
        byte[] bytes = Files.readAllBytes(corrupt);
        bytes[bytes.length / 2] ^= 0x40;
        Files.write(corrupt, bytes);
        RunReport report = run.get(2, TimeUnit.MINUTES);

        assertThat(report.fieldSha256()).isEqualTo(Campaign.referenceDigest(clean));
        assertThat(report.recoveries()).singleElement().satisfies(r -> {
            assertThat(r.restoredFrom()).isEqualTo("file-level");
            assertThat(r.checkpointIteration()).isEqualTo(5);
            assertThat(r.failureIteration()).isEqualTo(14);
            assertThat(r.lostPartitions()).containsExactly(0, 2);
        });
    }
}

