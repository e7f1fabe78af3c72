package org.dfr.harness.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SweepTest {

    @TempDir
    Path tmp;

    private static ExperimentSpec base() {
        return ExperimentSpec.builder().failures(List.of("1@4", "6@5")).build().orElse(ExperimentSpec.defaults());
    }

    @Test
    void when_failIterationIsSwept_then_everyFailureMovesThereAndKeepsItsRank() {
        Sweep sweep = Sweep.parse("fail-iteration=2,7");

        List<ExperimentSpec> points = sweep.points(base());

        assertThat(points).extracting(ExperimentSpec::failures)
                .containsExactly(List.of("1@2", "6@2"), List.of("1@7", "6@7"));
        // a point is one experiment: no sweep of its own, everything else the base's
        assertThat(points).allSatisfy(p -> {
            assertThat(p.sweep()).isNull();
            assertThat(p.toBuilder().failures(base().failures()).build()).isEqualTo(base());
        });
    }

    @Test
    void when_eachParameterTakesAValue_then_itsOwnFieldAndNoOtherChanges() {
        ExperimentSpec base = base();
        assertThat(SweepParameter.FAIL.apply(base, "2@3+5@3").failures()).containsExactly("2@3", "5@3");
        assertThat(SweepParameter.CHECKPOINT_EVERY.apply(base, "4").checkpointEvery()).isEqualTo(4);
        assertThat(SweepParameter.ITERATIONS.apply(base, "12").iterations()).isEqualTo(12);
        assertThat(SweepParameter.RANKS_PER_HOST.apply(base, "4").ranksPerHost()).isEqualTo(4);
        assertThat(SweepParameter.CELLS.apply(base, "512x256").cells()).containsExactly(512, 256);
        assertThat(SweepParameter.RANKS_GRID.apply(base, "1x8").ranksGrid()).containsExactly(1, 8);
        assertThat(SweepParameter.MODEL_ALPHA.apply(base, "2.5").modelAlpha()).isEqualTo(2.5);
        assertThat(SweepParameter.MODEL_IDLE_CLOCK_SHARE.apply(base, "0.3").modelIdleClockShare()).isEqualTo(0.3);
        assertThat(SweepParameter.SAMPLE_PERIOD_MILLIS.apply(base, "25").samplePeriodMillis()).isEqualTo(25L);
        assertThat(SweepParameter.CHECKPOINT_EVERY.apply(base, "4").toBuilder().checkpointEvery(base.checkpointEvery())
                .build()).isEqualTo(base);
    }

    @Test
    void when_aValueHasTheWrongForm_then_theMessageNamesItTheParameterAndTheForm() {
        assertThatThrownBy(() -> SweepParameter.CHECKPOINT_EVERY.apply(base(), "0"))
                .hasMessage("sweep value '0' of checkpoint-every is not allowed: give an interval >= 1");
        assertThatThrownBy(() -> SweepParameter.CELLS.apply(base(), "64xx"))
                .hasMessage("sweep value '64xx' of cells is not allowed: give sizes like 1024x1024");
        assertThatThrownBy(() -> SweepParameter.FAIL.apply(base(), "1@2+x"))
                .hasMessageStartingWith("sweep value '1@2+x' of fail is not allowed: give RANK@ITER[+RANK@ITER...]")
                .hasMessageContaining("bad failure 'x'");
        assertThatThrownBy(() -> SweepParameter.FAIL_ITERATION.apply(ExperimentSpec.defaults().toBuilder()
                .failures(List.of()).build(), "3"))
                .hasMessageContaining("the experiment has no failure to move: give one with --fail");
    }

    @Test
    void when_theSweepItselfIsMalformed_then_itIsRefusedWithTheAllowedForm() {
        assertThatThrownBy(() -> Sweep.parse("nope=1,2")).hasMessageStartingWith("unknown sweep parameter 'nope': one of"
                + " [fail, fail-iteration, checkpoint-every");
        assertThatThrownBy(() -> Sweep.parse("fail-iteration")).hasMessageContaining("give PARAMETER=V1,V2,...");
        assertThatThrownBy(() -> Sweep.parse("fail-iteration=4")).hasMessageContaining("give 2..100 values");
        assertThatThrownBy(() -> Sweep.parse("fail-iteration=4,4")).hasMessageContaining("each value once");
        assertThatThrownBy(() -> Sweep.parse("fail-iteration=4,")).hasMessageContaining("none empty");
    }

    @Test
    void when_aSweepingSpecGoesToTheWrongRunner_then_itIsRefused() {
        ExperimentSpec spec = base().toBuilder().sweep(Sweep.parse("fail-iteration=2,3")).build();

        // a point's own validation (a failure past the run, say) needs the kernels: BadInputTest covers it
        assertThatThrownBy(() -> new Experiment(spec, tmp).run()).hasMessageContaining("run it as an ExperimentSweep");
        assertThatThrownBy(() -> new ExperimentSweep(base(), tmp)).hasMessageContaining("the experiment has no sweep");
    }

    @Test
    void when_pointsGetDirectories_then_theyAreOrderedAndSafeAsFileNames() {
        Sweep sweep = Sweep.parse("fail=1@4+2@4,3@2");

        assertThat(sweep.directory(0)).isEqualTo("01-fail-1_4_2_4");
        assertThat(sweep.directory(1)).isEqualTo("02-fail-3_2");
        assertThat(Sweep.parse("cells=64x64,128x128").directory(1)).isEqualTo("02-cells-128x128");
    }

    @Test
    void when_anExperimentFileHasASweep_then_itIsReadAndWrittenBackTheSame() throws Exception {
        Path file = Files.writeString(tmp.resolve("sweep.yaml"), """
                iterations: 10
                failures: ["1@4"]
                sweep:
                  parameter: fail-iteration
                  values: [2, 4, 6]
                """);

        ExperimentSpec read = ExperimentSpec.read(file);

        assertThat(read.sweep()).isEqualTo(new Sweep(SweepParameter.FAIL_ITERATION, List.of("2", "4", "6")));
        Path json = Files.writeString(tmp.resolve("back.json"), read.toJson());
        assertThat(ExperimentSpec.read(json)).isEqualTo(read);
        assertThat(read.toJson()).contains("\"parameter\" : \"fail-iteration\"").contains("\"order\" : \"interleaved\"");
        Path sequential = Files.writeString(tmp.resolve("sequential.yaml"),
                "sweep: {parameter: cells, values: [64x64, 128x128], order: sequential}\n");
        assertThat(ExperimentSpec.read(sequential).sweep().order()).isEqualTo(Sweep.Order.SEQUENTIAL);
        assertThatThrownBy(() -> Sweep.Order.parse("random")).hasMessage("unknown sweep order 'random': interleaved or"
                + " sequential");
    }

    @Test
    void when_aSecondSettingIsGiven_then_thePointsAreTheGridWithItsValuesInner() {
        Sweep sweep = Sweep.parse("fail-iteration=2,7").withBy(Sweep.By.parse("ranks-per-host=2,4"));

        List<ExperimentSpec> points = sweep.points(base());

        assertThat(sweep.size()).isEqualTo(4);
        assertThat(points).extracting(ExperimentSpec::failures).containsExactly(List.of("1@2", "6@2"),
                List.of("1@2", "6@2"), List.of("1@7", "6@7"), List.of("1@7", "6@7"));
        assertThat(points).extracting(ExperimentSpec::ranksPerHost).containsExactly(2, 4, 2, 4);
        assertThat(points).allSatisfy(p -> assertThat(p.sweep()).isNull());
        assertThat(sweep.directory(1)).isEqualTo("02-fail-iteration-2-ranks-per-host-4");
        assertThat(sweep.pointLabel(2)).isEqualTo("fail-iteration=7 ranks-per-host=2");
        assertThat(sweep.valueAt(3)).isEqualTo("7");
        assertThat(sweep.byValueAt(3)).isEqualTo("4");
        assertThat(Sweep.parse("fail-iteration=2,7").byValueAt(1)).isNull();
    }

    @Test
    void when_theSecondSettingIsMalformed_then_itIsRefusedWithTheAllowedForm() {
        Sweep sweep = Sweep.parse("fail-iteration=2,7");

        assertThatThrownBy(() -> sweep.withBy(Sweep.By.parse("fail-iteration=3,4")))
                .hasMessage("sweep-by fail-iteration=3,4 is not allowed: it varies fail-iteration again; give another"
                        + " setting than the sweep's");
        assertThatThrownBy(() -> Sweep.By.parse("ranks-per-host")).hasMessageContaining("give PARAMETER=V1,V2,...");
        assertThatThrownBy(() -> Sweep.By.parse("ranks-per-host=2")).hasMessage("sweep-by of ranks-per-host with"
                + " values [2] is not allowed: give 2..100 values, e.g. ranks-per-host=V1,V2");
        String eleven = "1,2,3,4,5,6,7,8,9,10,11";
        assertThatThrownBy(() -> Sweep.parse("iterations=" + eleven).withBy(Sweep.By.parse("checkpoint-every=" + eleven)))
                .hasMessageContaining("121 points, at most 100");
    }

    @Test
    void when_anExperimentFileHasAGridSweep_then_itIsReadAndWrittenBackTheSame() throws Exception {
        Path file = Files.writeString(tmp.resolve("grid.yaml"), """
                iterations: 10
                failures: ["1@4"]
                sweep:
                  parameter: fail-iteration
                  values: [2, 4]
                  by: {parameter: ranks-per-host, values: [2, 4]}
                """);

        ExperimentSpec read = ExperimentSpec.read(file);

        assertThat(read.sweep().by()).isEqualTo(new Sweep.By(SweepParameter.RANKS_PER_HOST, List.of("2", "4")));
        Path json = Files.writeString(tmp.resolve("back.json"), read.toJson());
        assertThat(ExperimentSpec.read(json)).isEqualTo(read);
        assertThat(ExperimentSpec.read(file).toBuilder().sweep(Sweep.parse("fail-iteration=2,4")).build().toJson())
                .as("a sweep of one setting writes no second").doesNotContain("\"by\"");
    }
}
