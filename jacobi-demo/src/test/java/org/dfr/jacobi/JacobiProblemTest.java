package org.dfr.jacobi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class JacobiProblemTest {

    private final JacobiProblem problem = new JacobiProblem(7, 5);

    @Test
    void when_top_row_then_one_including_corners() {
        assertThat(problem.initialValue(0, 0)).isEqualTo(1.0);
        assertThat(problem.initialValue(4, 0)).isEqualTo(1.0);
        assertThat(problem.initialValue(8, 0)).isEqualTo(1.0);
    }

    @Test
    void when_bottom_row_then_zero_including_corners() {
        assertThat(problem.initialValue(0, 6)).isEqualTo(0.0);
        assertThat(problem.initialValue(3, 6)).isEqualTo(0.0);
        assertThat(problem.initialValue(8, 6)).isEqualTo(0.0);
    }

    @Test
    void when_left_and_right_columns_then_half_and_zero() {
        for (int y = 1; y <= 5; y++) {
            assertThat(problem.initialValue(0, y)).as("left y=%d", y).isEqualTo(0.5);
            assertThat(problem.initialValue(8, y)).as("right y=%d", y).isEqualTo(0.0);
        }
    }

    @Test
    void when_interior_then_formula_of_design() {
        // (31*1 + 17*1) % 101 = 48
        assertThat(problem.initialValue(1, 1)).isEqualTo(0.48);
        // (31*3 + 17*5) % 101 = 178 % 101 = 77
        assertThat(problem.initialValue(3, 5)).isEqualTo(0.77);
        // (31*7 + 17*2) % 101 = 251 % 101 = 49
        assertThat(problem.initialValue(7, 2)).isEqualTo(0.49);
        // (31*6 + 17*4) % 101 = 254 % 101 = 52
        assertThat(problem.initialValue(6, 4)).isEqualTo(52 / 100.0);
    }

    @Test
    void when_huge_coordinates_then_no_int_overflow() {
        JacobiProblem wide = new JacobiProblem(100_000_000, 1);
        int x = 99_999_999;
        // 31 * 99,999,999 = 3,099,999,969 does not fit in an int; the mathematical value mod 101:
        long expected = (3_099_999_969L + 17) % 101;
        assertThat(wide.initialValue(x, 1)).isEqualTo(expected / 100.0);
    }

    @Test
    void when_outside_the_array_then_rejected_naming_the_cell() {
        assertThatThrownBy(() -> problem.initialValue(9, 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("x=9");
        assertThatThrownBy(() -> problem.initialValue(1, -1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("y=-1");
    }

    @Test
    void when_extent_below_one_then_rejected_naming_the_value() {
        assertThatThrownBy(() -> new JacobiProblem(0, 3))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("nx")
                .hasMessageContaining("was 0");
        assertThatThrownBy(() -> new JacobiProblem(3, -2))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("ny")
                .hasMessageContaining("was -2");
    }

    @Test
    void when_interior_cells_then_product() {
        assertThat(new JacobiProblem(70_000, 70_000).interiorCells()).isEqualTo(4_900_000_000L);
        assertThat(problem.isInterior(1, 1)).isTrue();
        assertThat(problem.isInterior(7, 5)).isTrue();
        assertThat(problem.isInterior(0, 1)).isFalse();
        assertThat(problem.isInterior(8, 5)).isFalse();
    }
}
