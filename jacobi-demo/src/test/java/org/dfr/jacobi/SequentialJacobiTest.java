package org.dfr.jacobi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.data.Offset.offset;
import static org.assertj.core.data.Percentage.withPercentage;

import org.junit.jupiter.api.Test;

class SequentialJacobiTest {

    /**
     * 3 x 2 interior. Iteration 0, from the formulas of DESIGN.md:
     * <pre>
     * y=0: 1.0  1.0  1.0  1.0  1.0
     * y=1: 0.5  0.48 0.79 0.09 0.0     (31+17)=48, (62+17)=79, (93+17)%101=9
     * y=2: 0.5  0.65 0.96 0.26 0.0     (31+34)=65, (62+34)=96, (93+34)%101=26
     * y=3: 0.0  0.0  0.0  0.0  0.0
     * </pre>
     * new = 0.25 * (((north + south) + west) + east).
     */
    @Test
    void when_one_iteration_on_tiny_grid_then_hand_computed_values() {
        SequentialJacobi solver = new SequentialJacobi(new JacobiProblem(3, 2));
        double residual = solver.iterate();

        double n11 = 0.25 * (((1.0 + 0.65) + 0.5) + 0.79);
        double n21 = 0.25 * (((1.0 + 0.96) + 0.48) + 0.09);
        double n31 = 0.25 * (((1.0 + 0.26) + 0.79) + 0.0);
        double n12 = 0.25 * (((0.48 + 0.0) + 0.5) + 0.96);
        double n22 = 0.25 * (((0.79 + 0.0) + 0.65) + 0.26);
        double n32 = 0.25 * (((0.09 + 0.0) + 0.96) + 0.0);
        assertThat(solver.value(1, 1)).isEqualTo(n11);
        assertThat(solver.value(2, 1)).isEqualTo(n21);
        assertThat(solver.value(3, 1)).isEqualTo(n31);
        assertThat(solver.value(1, 2)).isEqualTo(n12);
        assertThat(solver.value(2, 2)).isEqualTo(n22);
        assertThat(solver.value(3, 2)).isEqualTo(n32);
        // sanity of the hand arithmetic itself: 0.25 * 2.94 = 0.735
        assertThat(n11).isCloseTo(0.735, offset(1e-15));

        double expectedResidual = square(n11 - 0.48) + square(n21 - 0.79) + square(n31 - 0.09)
                + square(n12 - 0.65) + square(n22 - 0.96) + square(n32 - 0.26);
        assertThat(residual).isCloseTo(expectedResidual, withPercentage(1e-10));
        assertThat(solver.iterations()).isEqualTo(1);
    }

    @Test
    void when_iterating_then_boundary_never_changes() {
        JacobiProblem problem = new JacobiProblem(5, 4);
        SequentialJacobi solver = new SequentialJacobi(problem);
        solver.iterate(7);
        for (int x = 0; x <= 6; x++) {
            assertThat(solver.value(x, 0)).isEqualTo(1.0);
            assertThat(solver.value(x, 5)).isEqualTo(0.0);
        }
        for (int y = 1; y <= 4; y++) {
            assertThat(solver.value(0, y)).isEqualTo(0.5);
            assertThat(solver.value(6, y)).isEqualTo(0.0);
        }
    }

    @Test
    void when_many_iterations_then_bitwise_equal_to_naive_two_dimensional_reference() {
        JacobiProblem problem = new JacobiProblem(13, 9);
        SequentialJacobi solver = new SequentialJacobi(problem);
        NaiveJacobi reference = new NaiveJacobi(problem);
        for (int i = 1; i <= 40; i++) {
            double residual = solver.iterate();
            double expected = reference.iterate();
            assertThat(residual).as("residual of iteration %d", i).isCloseTo(expected,
                    withPercentage(1e-10));
        }
        for (int y = 0; y <= 10; y++) {
            for (int x = 0; x <= 14; x++) {
                assertThat(Double.doubleToRawLongBits(solver.value(x, y)))
                        .as("u[%d][%d]", y, x)
                        .isEqualTo(Double.doubleToRawLongBits(reference.u[y][x]));
            }
        }
        assertThat(solver.digest()).isEqualTo(FieldDigest.ofField(problem, reference.flat()));
    }

    @Test
    void when_iterating_then_residual_decreases_towards_steady_state() {
        SequentialJacobi solver = new SequentialJacobi(new JacobiProblem(8, 8));
        double early = solver.iterate(5);
        double late = solver.iterate(500);
        assertThat(late).isLessThan(early).isGreaterThanOrEqualTo(0.0);
    }

    @Test
    void when_field_copy_modified_then_solver_unaffected() {
        SequentialJacobi solver = new SequentialJacobi(new JacobiProblem(3, 3));
        double[] field = solver.field();
        field[6] = 42;
        assertThat(solver.value(1, 1)).isEqualTo(0.48);
    }

    @Test
    void when_negative_count_or_outside_cell_then_rejected() {
        SequentialJacobi solver = new SequentialJacobi(new JacobiProblem(3, 3));
        assertThatThrownBy(() -> solver.iterate(-1)).hasMessageContaining("-1");
        assertThatThrownBy(() -> solver.value(5, 0)).hasMessageContaining("x=5");
    }

    private static double square(double d) {
        return d * d;
    }

    /** A deliberately plain double[][] implementation of DESIGN.md, independent of JacobiStencil. */
    static final class NaiveJacobi {
        final int nx;
        final int ny;
        double[][] u;

        NaiveJacobi(JacobiProblem problem) {
            nx = problem.nx();
            ny = problem.ny();
            u = new double[ny + 2][nx + 2];
            for (int x = 0; x <= nx + 1; x++) {
                u[0][x] = 1.0;
                u[ny + 1][x] = 0.0;
            }
            for (int y = 1; y <= ny; y++) {
                u[y][0] = 0.5;
                u[y][nx + 1] = 0.0;
                for (int x = 1; x <= nx; x++) {
                    u[y][x] = ((31 * x + 17 * y) % 101) / 100.0;
                }
            }
        }

        double iterate() {
            double[][] next = new double[ny + 2][];
            for (int y = 0; y <= ny + 1; y++) {
                next[y] = u[y].clone();
            }
            double residual = 0;
            for (int y = 1; y <= ny; y++) {
                for (int x = 1; x <= nx; x++) {
                    next[y][x] = 0.25 * (u[y - 1][x] + u[y + 1][x] + u[y][x - 1] + u[y][x + 1]);
                    residual += (next[y][x] - u[y][x]) * (next[y][x] - u[y][x]);
                }
            }
            u = next;
            return residual;
        }

        double[] flat() {
            double[] flat = new double[(ny + 2) * (nx + 2)];
            for (int y = 0; y <= ny + 1; y++) {
                System.arraycopy(u[y], 0, flat, y * (nx + 2), nx + 2);
            }
            return flat;
        }
    }
}
