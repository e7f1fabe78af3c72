package org.dfr.jacobi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class FivePointDependenciesTest {

    @Test
    void when_any_grid_then_inputs_are_self_and_cartesian_neighbours_by_brute_force() {
        for (int px = 1; px <= 5; px++) {
            for (int py = 1; py <= 5; py++) {
                FivePointDependencies deps = new FivePointDependencies(px, py);
                assertThat(deps.partitionCount()).isEqualTo(px * py);
                for (int p = 0; p < px * py; p++) {
                    List<Integer> expected = new ArrayList<>();
                    for (int q = 0; q < px * py; q++) {
                        int distance = Math.abs(q % px - p % px) + Math.abs(q / px - p / px);
                        if (distance <= 1) {
                            expected.add(q);
                        }
                    }
                    assertThat(deps.inputsOf(p)).as("R(%d) on %dx%d", p, px, py)
                            .containsExactly(expected.stream().mapToInt(Integer::intValue).toArray());
                }
            }
        }
    }

    @Test
    void when_partition_out_of_range_then_rejected() {
        FivePointDependencies deps = new FivePointDependencies(2, 2);
        assertThatThrownBy(() -> deps.inputsOf(4))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("partition 4");
    }
}
