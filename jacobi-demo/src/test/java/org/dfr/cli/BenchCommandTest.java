package org.dfr.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.assertj.core.data.Offset;
import org.dfr.cli.bench.BenchLayouts;
import org.dfr.cli.options.Sizes;
import org.dfr.jacobi.JacobiStencil;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs {@code dfr bench} on tiny sizes: it must print every row; speed is never asserted. */
class BenchCommandTest {

    private static CliRun run(String... args) {
        return CliRun.of(args);
    }

    @Test
    void when_tinyGrid_then_everyRowAndBothFractionsPrinted_andJsonMatches(@TempDir Path dir) throws Exception {
        Path json = dir.resolve("bench.json");
        CliRun r = run("bench", "--cells", "64x48", "--iterations", "6", "--ranks", "1,2", "--skip-processes",
                "--checkpoints", "1", "--bandwidth-mib", "1", "--json", json.toString());

        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).contains("grid 64x48 cells, 6 timed iterations")
                .contains("kernel: " + JacobiStencil.implementation())
                .contains("loop only")
                .containsPattern("(?m)^sequential +\\d\\.\\d\\de\\+\\d\\d +1\\.00x")
                // the targets were set for 4096x4096: no verdict on a 64x48 run
                .containsPattern("(?m)^1x1 embedded +\\d\\.\\d\\de\\+\\d\\d +\\d+\\.\\d\\dx +- +- ")
                .containsPattern("(?m)^2x1 embedded +\\d\\.\\d\\de\\+\\d\\d +\\d+\\.\\d\\dx +- +- ")
                .contains("sequential kernel / bandwidth bound:")
                .contains("memory bandwidth (STREAM-like copy, 1 thread)")
                .contains("of bound")
                .contains("checkpoint of the whole grid on 2x1")
                .contains("loop overhead per checkpoint:")
                .contains("the ratio targets and the C + MPI reference figures are for jacobi2d5 on 4096x4096 cells;"
                        + " not shown for this run")
                .doesNotContain("processes");
        JsonNode tree = new ObjectMapper().readTree(json.toFile());
        assertThat(tree.get("rows")).hasSize(3);
        assertThat(tree.get("kernel").asText()).isEqualTo(JacobiStencil.implementation()).startsWith("vector (");
        double seq = tree.get("sequentialCellUpdatesPerSecond").doubleValue();
        JsonNode twoRanks = tree.get("rows").get(2);
        assertThat(twoRanks.get("configuration").asText()).isEqualTo("2x1 embedded");
        // the peer's figure was measured on 4096x4096 only: not beside a 64x48 run
        assertThat(twoRanks.has("mpiCellUpdatesPerSecond")).isFalse();
        // the ratio is the row's throughput over the sequential one; the 4096x4096 target is not applied
        assertThat(twoRanks.get("ratioToSequential").doubleValue())
                .isCloseTo(twoRanks.get("cellUpdatesPerSecond").doubleValue() / seq, Offset.offset(1e-9));
        assertThat(twoRanks.has("targetRatio")).isFalse();
        assertThat(twoRanks.has("met")).isFalse();
        // two ranks are bounded by what min(2, cores) threads can copy together; one rank by one thread
        int twoRankThreads = Math.min(2, Runtime.getRuntime().availableProcessors());
        JsonNode bounds = tree.get("bandwidthBounds");
        assertThat(bounds.get(0).get("threads").intValue()).isEqualTo(1);
        JsonNode twoRankBound = bounds.get(bounds.size() - 1);
        assertThat(twoRankBound.get("threads").intValue()).isEqualTo(twoRankThreads);
        assertThat(twoRankBound.get("boundCellUpdatesPerSecond").doubleValue())
                .isCloseTo(twoRankBound.get("bytesPerSecond").doubleValue() / 16, Offset.offset(1e-3));
        assertThat(twoRanks.get("fractionOfBandwidthBound").doubleValue())
                .isCloseTo(twoRanks.get("cellUpdatesPerSecond").doubleValue()
                        / twoRankBound.get("boundCellUpdatesPerSecond").doubleValue(), Offset.offset(1e-9));
        assertThat(tree.get("rows").get(0).get("fractionOfBandwidthBound").doubleValue())
                .isEqualTo(tree.get("sequentialFractionOfBound").doubleValue());
        // 6 iterations, 1 checkpoint wanted: every 3 iterations, so one (at 3) inside the loop
        assertThat(tree.get("checkpoint").get("checkpointEvery").intValue()).isEqualTo(3);
        assertThat(tree.get("checkpoint").get("checkpointsInLoop").intValue()).isEqualTo(1);
        assertThat(Files.list(dir)).containsExactly(json);
    }

    @Test
    void when_layoutsHaveMoreRanksThanCores_then_theirBoundUsesEveryCoreOnce() {
        List<Sizes> layouts = BenchLayouts.parseAll(List.of("1", "2", "4", "8"), 2);

        assertThat(BenchCommand.bandwidthThreads(layouts, 2)).containsExactly(1, 2);
        assertThat(BenchCommand.bandwidthThreads(layouts, 6)).containsExactly(1, 2, 4, 6);
        assertThat(BenchCommand.bandwidthThreads(BenchLayouts.parseAll(List.of("2x4"), 2), 1)).containsExactly(1);
    }

    @Test
    void when_kernelHasThreeAxes_then_rankCountsBecomeCubicGrids() {
        assertThat(BenchLayouts.parseAll(List.of("1", "2", "4", "8", "12", "2x1x3"), 3)).extracting(Sizes::toString)
                .containsExactly("1x1x1", "2x1x1", "2x2x1", "2x2x2", "2x2x3", "2x1x3");
        assertThat(BenchLayouts.parseAll(List.of("8"), 1)).extracting(Sizes::toString).containsExactly("8");
        assertThatThrownBy(() -> BenchLayouts.parseAll(List.of("2x2"), 3)).hasMessageContaining("'2x2' has 2 axes");
    }

    @Test
    void when_badRanksEntry_then_exit2NamingIt() {
        CliRun r = run("bench", "--cells", "64x64", "--ranks", "1,two");

        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("'two'").contains("PXxPY");
    }

    @Test
    void when_badCells_then_exit2NamingTheForm() {
        CliRun r = run("bench", "--cells", "64", "--ranks", "1");

        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("kernel jacobi2d5 takes 2 axes").contains("--cells 64");
    }
}
