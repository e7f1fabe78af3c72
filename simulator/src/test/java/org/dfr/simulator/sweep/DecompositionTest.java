package org.dfr.simulator.sweep;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.assertj.core.api.Assertions.withinPercentage;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class DecompositionTest {

    @ParameterizedTest
    @ValueSource(ints = {1, 7, 100, 300, 700, 1000, 10_000, 100_000})
    void when_balanced_in_2d_then_no_factor_pair_is_closer_to_square(int nodes) {
        Decomposition d = Decomposition.balanced(2, nodes);

        assertThat(d.nodes()).isEqualTo(nodes);
        assertThat(d.px()).isLessThanOrEqualTo(d.py());
        for (int a = d.px() + 1; (long) a * a <= nodes; a++) {
            assertThat(nodes % a).as("factor %d is closer to the square root", a).isNotZero();
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 64, 100, 500, 1000, 10_000, 100_000})
    void when_balanced_in_3d_then_the_largest_side_is_the_smallest_possible(int nodes) {
        Decomposition d = Decomposition.balanced(3, nodes);

        assertThat(d.nodes()).isEqualTo(nodes);
        assertThat(List.of(d.px(), d.py(), d.pz())).isSorted();
        for (int c = 1; c < d.pz(); c++) {
            if (nodes % c == 0) {
                int rest = nodes / c;
                boolean fits = false;
                for (int a = 1; a <= c; a++) {
                    fits |= rest % a == 0 && rest / a <= c;
                }
                assertThat(fits).as("a largest side of %d would do", c).isFalse();
            }
        }
    }

    @Test
    void when_the_paper_sizes_are_decomposed_then_the_extended_3d_point_is_40x50x50() {
        assertThat(Decomposition.balanced(3, 100_000).grid()).isEqualTo("40x50x50");
        assertThat(Decomposition.balanced(3, 1000).grid()).isEqualTo("10x10x10");
        assertThat(Decomposition.balanced(2, 100_000).grid()).isEqualTo("250x400");
        assertThat(Decomposition.balanced(3, 1000).dependencies().inputsOf(0)).hasSize(4);
    }

    @Test
    void when_a_quadratic_is_sampled_then_the_fit_recovers_its_coefficients() {
        List<Double> xs = List.of(100.0, 300.0, 1000.0, 10_000.0, 100_000.0);
        List<Double> ys = xs.stream().map(x -> 3 - 0.5 * x + 2e-4 * x * x).toList();

        QuadraticFit fit = QuadraticFit.of("test", xs, ys);

        assertThat(fit.c()).isCloseTo(2e-4, withinPercentage(1e-6));
        assertThat(fit.b()).isCloseTo(-0.5, withinPercentage(1e-4));
        assertThat(fit.rSquared()).isGreaterThan(0.999999);
    }

    @Test
    void when_every_point_has_the_same_value_then_the_fit_is_that_constant_and_its_r_squared_is_undefined() {
        List<Double> xs = List.of(100.0, 300.0, 1000.0);
        List<Double> zeros = List.of(0.0, 0.0, 0.0);

        QuadraticFit fit = QuadraticFit.of("no saving", xs, zeros);

        assertThat(fit.at(500)).isCloseTo(0.0, within(1e-12));
        assertThat(fit.rSquared()).isNaN();
        assertThat(fit.formula()).endsWith("(R^2 undefined: the data are constant)");
    }

    /** Three node counts fix a quadratic exactly: R^2 = 1 says nothing, and the formula says so; signs read as signs. */
    @Test
    void when_three_points_are_fitted_then_the_formula_says_the_fit_is_exact_by_construction() {
        QuadraticFit fit = QuadraticFit.of("three", List.of(1000.0, 10000.0, 100000.0), List.of(1.0, 3.0, 2.0));

        assertThat(fit.rSquared()).isCloseTo(1.0, within(1e-9));
        assertThat(fit.formula()).contains(" P - ").doesNotContain("+ -")
                .endsWith("(R^2 1.0000, exact by construction: 3 points for 3 parameters)");
    }
}
