package org.dfr.harness.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RunNotesTest {

    private static RunRow row(int run, Variant variant, double iterationSeconds) {
        return new RunRow(run, variant, run, "model", 1000, 50, 20, 5, 10, 200, 9, Set.of("host1"), Set.of("host0"), 40,
                120, 40, 0, Map.of(), "digest", iterationSeconds);
    }

    @Test
    void when_oneRunIteratesFarSlowerThanItsVariantsOthers_then_aNoteNamesIt_andNoOther() {
        List<RunRow> rows = new ArrayList<>();
        for (int run = 1; run <= 4; run++) {
            rows.add(row(run, Variant.DFR, 0.002));
            rows.add(row(10 + run, Variant.GLOBAL, run == 2 ? 0.003 : 0.002)); // 1.5 times: not an outlier
        }
        rows.add(row(23, Variant.DFR, 0.103));

        List<String> notes = RunNotes.slowRuns(rows);

        assertThat(notes).singleElement().asString()
                .startsWith("dfr: run 23 iterated 51 times slower than the variant's median (0.1030 s against 0.002000 s");
    }

    @Test
    void when_aVariantHasFewerThanThreeRuns_then_noRunIsCalledSlow() {
        assertThat(RunNotes.slowRuns(List.of(row(1, Variant.DFR, 0.002), row(2, Variant.DFR, 0.5)))).isEmpty();
    }
}
