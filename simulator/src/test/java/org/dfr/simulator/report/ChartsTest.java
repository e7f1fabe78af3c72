package org.dfr.simulator.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.dfr.simulator.sweep.PointSummary;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChartsTest {

    private static PointSummary point(int nodes, String strategy, double recomputedPerNode, double sd) {
        return new PointSummary(2, nodes, "grid", 10, strategy, 3, 0, 5, 1, 5, recomputedPerNode, sd, 1, 1, 0, 1, 0, 0, 0,
                0, 1, 1, 1);
    }

    @Test
    void when_recomputationSpansDecades_then_theAxisIsLogarithmic_andNotWithAZero() {
        List<PointSummary> wide = List.of(point(1024, "global", 66.8, 30), point(1024, "dfr", 0.64, 0.9),
                point(100_000, "global", 56_105, 900), point(100_000, "dfr", 5.84, 8));
        List<PointSummary> withZero = List.of(point(64, "global", 12, 3), point(64, "dfr", 0, 0));
        List<PointSummary> narrow = List.of(point(64, "global", 12, 3), point(64, "dfr", 0.5, 0.1));

        assertThat(Charts.spansDecades(wide, List.of("global", "dfr"), PointSummary::recomputedPerNodeMean)).isTrue();
        assertThat(Charts.spansDecades(withZero, List.of("global", "dfr"), PointSummary::recomputedPerNodeMean)).isFalse();
        assertThat(Charts.spansDecades(narrow, List.of("global", "dfr"), PointSummary::recomputedPerNodeMean)).isFalse();
    }

    @Test
    void when_aLogChartHasDeviationsLargerThanItsMeans_then_itIsDrawnAnyway(@TempDir Path dir) throws Exception {
        // XChart refuses a log axis whose error bars reach below zero: the bars are left out there
        List<PointSummary> wide = List.of(point(1024, "global", 66.8, 30), point(1024, "dfr", 0.64, 0.9),
                point(100_000, "global", 56_105, 900), point(100_000, "dfr", 5.84, 8));
        Path png = dir.resolve("recomputed-2d.png");

        Charts.recomputed(png, "Recomputed iterations per node, 2D", wide, List.of("global", "dfr"), true);

        assertThat(Files.size(png)).isGreaterThan(1000);
    }
}
