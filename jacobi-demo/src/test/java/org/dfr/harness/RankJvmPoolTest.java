package org.dfr.harness;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** When a pool's JVMs may stand in for a run's rank JVMs: decided from the pool's manifest, no JVM started. */
class RankJvmPoolTest {

    @TempDir
    Path tmp;

    private List<String> command(Path jar, String... options) {
        List<String> cmd = new ArrayList<>(List.of("/usr/bin/java", "-Xmx512m", "-XX:+UseParallelGC"));
        cmd.addAll(List.of(options));
        cmd.addAll(List.of("-cp", jar.toString(), RankProcessMain.class.getName()));
        return cmd;
    }

    private RankJvmPool poolStartedWith(List<String> command, long heapMib) throws IOException {
        RankJvmPool pool = new RankJvmPool(tmp.resolve("pool"));
        Files.createDirectories(pool.directory());
        RunReports.JSON.writeValue(pool.directory().resolve(RankJvmPool.MANIFEST).toFile(),
                new RankJvmPool.Manifest(RankJvmPool.comparable(command), heapMib, 8, 60, RankJvmPool.buildOf(command),
                        Path.of(System.getProperty("user.dir")).toAbsolutePath().normalize().toString()));
        return pool;
    }

    @Test
    void when_onlyTheHeapRankArchiveAndJitTimingDiffer_then_thePoolServesTheRun() throws IOException {
        Path jar = Files.writeString(tmp.resolve("dfr.jar"), "a build");
        RankJvmPool pool = poolStartedWith(command(jar), 1024);

        List<String> rank3 = command(jar, "-D" + ProcessLauncher.RANK_PROPERTY + "=3", "-XX:CompileThresholdScaling=5",
                "-XX:SharedArchiveFile=/x.jsa", "-Xlog:cds=off,cds+dynamic=off");

        assertThat(pool.incompatibility(rank3, 449)).isEmpty();
        assertThat(pool.startedWith(command(jar), 1024)).isTrue();
    }

    @Test
    void when_theRunNeedsMoreHeap_then_itIsRefusedNamingBothHeaps() throws IOException {
        Path jar = Files.writeString(tmp.resolve("dfr.jar"), "a build");
        RankJvmPool pool = poolStartedWith(command(jar), 256);

        assertThat(pool.incompatibility(command(jar), 449)).contains("its JVMs have a heap of 256 MiB and the run's"
                + " ranks need 449 MiB (dfr pool start --heap-mib)");
    }

    @Test
    void when_anOptionDiffers_then_itIsRefusedNamingWhatOnlyEachHas() throws IOException {
        Path jar = Files.writeString(tmp.resolve("dfr.jar"), "a build");
        RankJvmPool pool = poolStartedWith(command(jar, "-Ddfr.log=INFO"), 1024);

        assertThat(pool.incompatibility(command(jar, "-XX:TieredStopAtLevel=1"), 256)).hasValueSatisfying(why ->
                assertThat(why).contains("the run only: [-XX:TieredStopAtLevel=1]; the pool only: [-Ddfr.log=INFO]"));
        assertThat(pool.startedWith(command(jar, "-XX:TieredStopAtLevel=1"), 1024)).isFalse();
    }

    @Test
    void when_theJarWasRebuiltSinceThePoolStarted_then_itIsRefused() throws IOException {
        Path jar = Files.writeString(tmp.resolve("dfr.jar"), "a build");
        RankJvmPool pool = poolStartedWith(command(jar), 1024);

        Files.writeString(jar, "another build");
        Files.setLastModifiedTime(jar, FileTime.fromMillis(Files.getLastModifiedTime(jar).toMillis() + 2_000));

        assertThat(pool.incompatibility(command(jar), 256)).hasValueSatisfying(why ->
                assertThat(why).contains("its JVMs run another build of the class path"));
        assertThat(pool.startedWith(command(jar), 1024)).isFalse();
    }

    @Test
    void when_noPoolWasStarted_then_itSaysSoAndHasNoReadyJvm() {
        RankJvmPool pool = new RankJvmPool(tmp.resolve("none"));

        assertThat(pool.incompatibility(command(tmp.resolve("dfr.jar")), 256)).contains("no pool was started in "
                + tmp.resolve("none"));
        assertThat(pool.readyPids()).isEmpty();
        assertThat(pool.manifest()).isEmpty();
        assertThat(pool.refill(heap -> command(tmp.resolve("dfr.jar")))).as("nothing to refill").isZero();
    }

    @Test
    void when_aSlotFileNamesAGoneProcess_then_itIsNotReadyAndItsFileIsDeleted() throws IOException {
        RankJvmPool pool = poolStartedWith(command(tmp.resolve("dfr.jar")), 1024);
        Process gone = new ProcessBuilder("true").start();
        gone.onExit().join();
        Path slot = RankJvmPool.slotFile(pool.directory(), gone.pid());
        RunReports.JSON.writeValue(slot.toFile(), new PoolSlot(gone.pid(), 1, "token"));

        assertThat(pool.readyPids()).isEmpty();
        assertThat(slot).doesNotExist();
    }

    @Test
    void when_thePoolDirectoryHasQuotesOrPercents_then_theOutOfMemoryCommandStillNamesItsFile() {
        String command = RankJvmPool.outOfMemoryCommand(Path.of("/tmp/it's 100%"));

        // HotSpot turns %% into % and %p into the pid, then runs the command with /bin/sh -c
        assertThat(command).isEqualTo("touch '/tmp/it'\\''s 100%%/out-of-memory-%p'");
    }


    @Test
    void when_theRunsRankCommandIsNotThePools_then_theRefillStartsNoJvmThatWouldReplaceIt() throws IOException {
        Path jar = Files.writeString(tmp.resolve("dfr.jar"), "a build");
        RankJvmPool pool = poolStartedWith(command(jar), 1024);
        List<Long> heapsAsked = new ArrayList<>();

        int started = pool.refill(heap -> {
            heapsAsked.add(heap);
            return command(jar, "-XX:TieredStopAtLevel=1");
        });

        assertThat(started).isZero();
        assertThat(heapsAsked).as("the command is asked for the pool's own heap").containsExactly(1024L);
        assertThat(pool.manifest()).hasValueSatisfying(m -> assertThat(m.command())
                .isEqualTo(RankJvmPool.comparable(command(jar))));
        assertThat(pool.unclaimed()).isEmpty();
    }

}
