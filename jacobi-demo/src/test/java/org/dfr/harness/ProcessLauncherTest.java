package org.dfr.harness;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.dfr.recovery.FaultPlan;
import org.junit.jupiter.api.Test;

class ProcessLauncherTest {

    private static final long MIB = 1L << 20;

    @Test
    void when_noOptionChoosesACollector_then_theRanksUseTheParallelOne() {
        assertThat(ProcessLauncher.defaultCollector(List.of("-Xlog:gc"), List.of("-XX:+AlwaysPreTouch")))
                .containsExactly("-XX:+UseParallelGC");
    }

    @Test
    void when_anOptionChoosesACollector_then_noSecondOneIsAddedForTheJvmRefusesTwo() {
        assertThat(ProcessLauncher.defaultCollector(List.of(), List.of("-XX:+UseG1GC"))).isEmpty();
        assertThat(ProcessLauncher.defaultCollector(List.of("-XX:+UseSerialGC"), List.of())).isEmpty();
    }

    @Test
    void when_problemIsSmall_then_heapIsTheMinimum() {
        assertThat(ProcessLauncher.heapMib(RunConfig.of(2, 4, 37, 29, 10, 10)))
                .isEqualTo(ProcessLauncher.MIN_HEAP_MIB);
    }

    @Test
    void when_problemIsLarge_then_heapHoldsTwentyCopiesOfTheBlockPlusOverhead() {
        // 2x2 ranks of 4096x4096 cells: blocks of 2048x2048 plus a halo ring
        long block = 2050L * 2050L;
        long expected = ProcessLauncher.BYTES_PER_BLOCK_CELL * block / MIB + 1 + ProcessLauncher.HEAP_OVERHEAD_MIB;

        assertThat(ProcessLauncher.heapMib(RunConfig.of(2, 2, 4096, 4096, 10, 10))).isEqualTo(expected);
        assertThat(expected * MIB).isGreaterThan(20L * 8 * 2048 * 2048);
    }

    @Test
    void when_aFailureHasNoSpare_then_heapAllowsAnAdoptedSecondBlock() {
        RunConfig config = RunConfig.of(2, 2, 4096, 4096, 10, 10);
        List<FaultPlan.Kill> kill = List.of(new FaultPlan.Kill(1, 4, FaultPlan.Point.ITERATION_START));
        long one = ProcessLauncher.heapMib(config) - ProcessLauncher.HEAP_OVERHEAD_MIB;

        long noSpare = ProcessLauncher.heapMib(config.withFaults(kill, List.of(), Set.of()))
                - ProcessLauncher.HEAP_OVERHEAD_MIB;
        long withSpare = ProcessLauncher.heapMib(config.withSpares(1).withFaults(kill, List.of(), Set.of()))
                - ProcessLauncher.HEAP_OVERHEAD_MIB;

        assertThat(noSpare).isBetween(2 * one - 2, 2 * one);
        assertThat(withSpare).isEqualTo(one);
    }

    @Test
    void when_aFailureQuotesARanksLastLines_then_theOneLineWarningEndsWithTheLastOfThem() {
        String failure = "rank 0 exited with code 5 (the cluster did not form); its last lines:\n"
                + "  WARNING: Using incubator modules: jdk.incubator.vector\n"
                + "  dfr rank: run failed: rank 0 could not join the cluster: Port [36065] is already in use\n";

        assertThat(ProcessLauncher.firstAndLastLine(failure)).isEqualTo("rank 0 exited with code 5 (the cluster did not"
                + " form); its last lines: dfr rank: run failed: rank 0 could not join the cluster: Port [36065] is"
                + " already in use");
        assertThat(ProcessLauncher.firstAndLastLine("one line")).isEqualTo("one line");
    }

    @Test
    void when_thisJvmsClassPathStartsWithDirectories_then_theRanksGetTheJarsFirstAndTheClassDataArchiveCanBeMade() {
        // surefire puts target/test-classes and target/classes first, as an IDE does
        List<String> ours = Arrays.asList(System.getProperty("java.class.path").split(File.pathSeparator));
        assertThat(Files.isDirectory(Path.of(ours.get(0)))).as("this test's premise: %s", ours.get(0)).isTrue();

        List<String> ranks = Arrays.asList(ProcessLauncher.classPath(List.of())
                .split(File.pathSeparator));

        assertThat(ranks).containsExactlyInAnyOrderElementsOf(ours);
        int firstDirectory = ranks.indexOf(ranks.stream().filter(e -> Files.isDirectory(Path.of(e))).findFirst()
                .orElseThrow());
        assertThat(ranks.subList(firstDirectory, ranks.size())).allMatch(e -> Files.isDirectory(Path.of(e)));
        assertThat(RankJvmArchive.key(String.join(File.pathSeparator, ranks))).isPresent();
        assertThat(RankJvmArchive.key(String.join(File.pathSeparator, ours))).isEmpty();
    }
}
