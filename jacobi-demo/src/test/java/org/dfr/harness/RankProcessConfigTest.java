package org.dfr.harness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Set;
import org.dfr.recovery.FaultPlan;
import org.dfr.recovery.Strategy;
import org.dfr.runtime.ClusterSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RankProcessConfigTest {

    @TempDir
    Path dir;

    @Test
    void when_writtenAndRead_then_everyFieldSurvives() {
        // capping is refused in processes mode, so this embedded config carries every other field
        RunConfig run = RunConfig.of(2, 4, 37, 29, 10, 5)
                .withStrategy(Strategy.GLOBAL)
                .withSpares(1)
                .withFaults(List.of(new FaultPlan.Kill(1, 4, FaultPlan.Point.ITERATION_START),
                                FaultPlan.Kill.pause(5, 6, 2_500)),
                        List.of(new FaultPlan.Kill(2, 7, FaultPlan.Point.ITERATION_START)), Set.of(3))
                .withCapping(true, dir.resolve("sys"), dir.resolve("journal.json"));
        ClusterSettings settings = new ClusterSettings().clusterName("c-1").heartbeatIntervalMillis(2_000)
                .maxNoHeartbeatMillis(7_000).messageTimeoutMillis(11).recoveryTimeoutMillis(13).joinTimeoutMillis(17)
                .checkpointBackups(1);
        RankProcessConfig written = RankProcessConfig.of(run, settings, 23_456, 19, 4242);
        Path file = dir.resolve("run.json");

        written.write(file);
        RankProcessConfig read = RankProcessConfig.read(file);

        assertThat(read).isEqualTo(written);
        assertThat(read.run().faultPlan()).isEqualTo(run.faultPlan());
        ClusterSettings back = read.clusterSettings();
        assertThat(List.of(back.clusterName(), back.basePort(), back.heartbeatIntervalMillis(),
                back.maxNoHeartbeatMillis(), back.messageTimeoutMillis(), back.recoveryTimeoutMillis(),
                back.joinTimeoutMillis(), back.checkpointBackups()))
                .containsExactly("c-1", 23_456, 2_000, 7_000, 11L, 13L, 17L, 1);
        // it holds the data plane's token: the owner's alone
        if (FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
            assertThat(PosixFilePermissions.toString(uncheckedPermissions(file))).isEqualTo("rw-------");
        }
    }

    private static Set<PosixFilePermission> uncheckedPermissions(Path file) {
        try {
            return Files.getPosixFilePermissions(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void when_aFileFromBeforeTheBackupsOptionIsRead_then_itsRunKeepsTheDefaultBackups() throws Exception {
        RankProcessConfig written = RankProcessConfig.of(RunConfig.of(2, 4, 37, 29, 10, 5), new ClusterSettings(), 23_456, 19, 1);
        Path file = dir.resolve("old.json");
        written.write(file);
        ObjectNode json = (ObjectNode) RunReports.JSON.readTree(file.toFile());
        json.remove("checkpointBackups");
        RunReports.JSON.writeValue(file.toFile(), json);

        assertThat(RankProcessConfig.read(file).clusterSettings().checkpointBackups())
                .isEqualTo(ClusterSettings.DEFAULT_CHECKPOINT_BACKUPS);
    }

    @Test
    void when_fileIsNotAConfiguration_then_errorNamesTheFile() throws Exception {
        Path file = Files.writeString(dir.resolve("bad.json"), "{\"run\": 3}");

        assertThatThrownBy(() -> RankProcessConfig.read(file))
                .isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining(file.toString());
    }
}
