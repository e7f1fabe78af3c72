package org.dfr.harness.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.RecordComponent;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ExperimentSpecTest {

    @Test
    void when_aSpecIsMergedOverABase_then_everyGivenFieldIsKeptAndEveryEmptyOneComesFromTheBase() {
        ExperimentSpec given = ExperimentSpec.builder().iterations(7).kernelOptions(Map.of("boundary", "periodic"))
                .kernelJars(List.of("/k/mine.jar")).build();
        ExperimentSpec base = ExperimentSpec.defaults();

        ExperimentSpec merged = given.orElse(base);

        assertThat(merged).isEqualTo(base.toBuilder().iterations(7).kernelOptions(Map.of("boundary", "periodic"))
                .kernelJars(List.of("/k/mine.jar")).build());
        assertThat(ExperimentSpec.empty().orElse(base)).isEqualTo(base);
        assertThat(base.toBuilder().build()).isEqualTo(base);
    }

    @Test
    void when_aSpecWithEveryFieldSetGoesThroughItsBuilder_then_nothingIsLost() throws Exception {
        ExperimentSpec full = ExperimentSpec.paperFig5().orElse(ExperimentSpec.defaults()).toBuilder().name("full")
                .sysfsRoot("/fake").kernelOptions(Map.of("boundary", "fixed")).kernelJars(List.of("/k.jar"))
                .sweep(Sweep.parse("checkpoint-every=2,4")).build();
        for (RecordComponent c : ExperimentSpec.class.getRecordComponents()) {
            assertThat(c.getAccessor().invoke(full)).as("component %s is set", c.getName()).isNotNull();
        }

        assertThat(full.toBuilder().build()).isEqualTo(full);
        assertThat(ExperimentSpec.empty().orElse(full)).isEqualTo(full);
    }

    @Test
    void when_thePaperPresetIsTaken_then_itIsFig5sCaseOnTheDocumentedModel() {
        ExperimentSpec fig5 = ExperimentSpec.preset("paper-fig5").orElse(ExperimentSpec.defaults());

        assertThat(fig5.cells()).containsExactly(8192, 8192);
        assertThat(fig5.ranksGrid()).containsExactly(2, 4);
        assertThat(fig5.failures()).containsExactly("1@4");
        assertThat(fig5.variants()).containsExactly(Variant.GLOBAL, Variant.DFR, Variant.DFR_CAPPING);
        assertThat(fig5.model()).isNotNull();
        assertThat(fig5.idlePowerWatts()).isEqualTo(40.0);
        assertThat(fig5.busyPowerWatts()).isEqualTo(120.0);
        assertThat(fig5.fakeSysfs()).isTrue();
        assertThat(fig5.repetitions()).isEqualTo(5);
        // what the preset leaves to the defaults
        assertThat(fig5.iterations()).isEqualTo(ExperimentSpec.defaults().iterations());
    }
}
