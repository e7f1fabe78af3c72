package org.dfr.jacobi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Percentage.withPercentage;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Both stencil implementations against a straightforward double[][] evaluation of the update,
 * written here independently of them, on sizes around the vector width (whole vectors, vectors plus
 * a scalar tail, no vector at all) and odd row counts (the vector form updates rows in pairs).
 * The surefire argLine loads jdk.incubator.vector, so the vector form is the one under test.
 */
class StencilSweepTest {

    private static final int[] COLS = {1, 2, 3, 7, 8, 9, 17, 37};
    private static final int[] ROWS = {1, 2, 3, 29};
    /** A residual summed in another order may differ from the reference by rounding only. */
    private static final double RESIDUAL_PERCENT = 1e-10; // relative 1e-12

    static Stream<Arguments> shapes() {
        List<Arguments> shapes = new ArrayList<>();
        for (int cols : COLS) {
            for (int rows : ROWS) {
                shapes.add(Arguments.of(cols, rows));
            }
        }
        return shapes.stream();
    }

    private static List<StencilSweep> implementations() {
        return List.of(new ScalarStencilSweep("test"), new VectorStencilSweep());
    }

    @ParameterizedTest(name = "{0} x {1}")
    @MethodSource("shapes")
    void when_any_shape_then_both_implementations_match_the_reference_bit_for_bit(int cols, int rows) {
        for (int padding : new int[] {0, 3}) {
            int stride = cols + 2 + padding;
            double[] in = randomMagnitudes(stride * (rows + 2), 31L * cols + rows);
            double[] outBefore = randomMagnitudes(in.length, 7L * cols + rows + 1);
            Reference expected = Reference.of(in, outBefore, stride, rows, cols);

            for (StencilSweep sweep : implementations()) {
                double[] input = in.clone();
                double[] out = outBefore.clone();
                double residual = sweep.sweep(input, out, stride, rows, cols);

                assertThat(input).as("%s leaves its input alone", sweep).isEqualTo(in);

                for (int i = 0; i < out.length; i++) {
                    assertThat(Double.doubleToRawLongBits(out[i]))
                            .as("%s, %d x %d, stride %d: out[%d] (y=%d, x=%d)", sweep, cols, rows, stride, i,
                                    i / stride, i % stride)
                            .isEqualTo(Double.doubleToRawLongBits(expected.out[i]));
                }
                assertThat(residual).as("%s, %d x %d, stride %d: residual", sweep, cols, rows, stride)
                        .isCloseTo(expected.residual, withPercentage(RESIDUAL_PERCENT));
            }
        }
    }

    @Test
    void when_iterated_on_the_problem_then_vector_and_scalar_fields_stay_bitwise_equal() {
        JacobiProblem problem = new JacobiProblem(37, 29);
        int stride = problem.nx() + 2;
        double[][] scalar = {SequentialJacobi.initialField(problem), SequentialJacobi.initialField(problem)};
        double[][] vector = {SequentialJacobi.initialField(problem), SequentialJacobi.initialField(problem)};
        StencilSweep scalarSweep = new ScalarStencilSweep("test");
        StencilSweep vectorSweep = new VectorStencilSweep();
        for (int i = 0; i < 50; i++) {
            double a = scalarSweep.sweep(scalar[i % 2], scalar[(i + 1) % 2], stride, problem.ny(), problem.nx());
            double b = vectorSweep.sweep(vector[i % 2], vector[(i + 1) % 2], stride, problem.ny(), problem.nx());
            assertThat(b).as("residual of iteration %d", i + 1).isCloseTo(a, withPercentage(RESIDUAL_PERCENT));
        }
        assertThat(FieldDigest.ofField(problem, vector[0])).isEqualTo(FieldDigest.ofField(problem, scalar[0]));
        for (int i = 0; i < scalar[0].length; i++) {
            assertThat(Double.doubleToRawLongBits(vector[0][i])).as("cell %d", i)
                    .isEqualTo(Double.doubleToRawLongBits(scalar[0][i]));
        }
    }

    @Test
    void when_magnitudes_are_mixed_then_the_test_data_would_expose_another_summation_order() {
        // guards the test above: with these inputs, (n + s) + (w + e) differs from ((n + s) + w) + e
        int cols = 37;
        int rows = 29;
        int stride = cols + 2;
        double[] in = randomMagnitudes(stride * (rows + 2), 31L * cols + rows);
        int differing = 0;
        for (int y = 1; y <= rows; y++) {
            for (int x = 1; x <= cols; x++) {
                int c = y * stride + x;
                double leftToRight = 0.25 * (((in[c - stride] + in[c + stride]) + in[c - 1]) + in[c + 1]);
                double pairwise = 0.25 * ((in[c - stride] + in[c + stride]) + (in[c - 1] + in[c + 1]));
                if (leftToRight != pairwise) {
                    differing++;
                }
            }
        }
        assertThat(differing).isGreaterThan(cols * rows / 10);
    }

    @Test
    void when_the_vector_module_is_loaded_then_the_vector_form_runs() {
        assertThat(ModuleLayer.boot().findModule(JacobiStencil.VECTOR_MODULE))
                .as("the surefire argLine must contain --add-modules jdk.incubator.vector").isPresent();
        assertThat(JacobiStencil.optimizingCompilerEnabled()).as("C2 in the surefire JVM").isTrue();
        assertThat(VectorStencilSweep.lanes()).isGreaterThanOrEqualTo(2);
        assertThat(JacobiStencil.active()).isInstanceOf(VectorStencilSweep.class);
        assertThat(JacobiStencil.implementation())
                .matches("vector \\((AVX-512|AVX|SSE|\\d+-bit), " + VectorStencilSweep.lanes() + " lanes\\)");
    }

    @Test
    void when_the_vector_module_is_missing_then_the_scalar_loop_says_why() {
        StencilSweep chosen = JacobiStencil.select(false, true, null);

        assertThat(chosen).isInstanceOf(ScalarStencilSweep.class);
        assertThat(chosen.description()).isEqualTo("scalar (jdk.incubator.vector not loaded)");
    }

    @Test
    void when_scalar_is_requested_then_scalar_even_with_the_module() {
        StencilSweep chosen = JacobiStencil.select(true, true, "scalar");

        assertThat(chosen).isInstanceOf(ScalarStencilSweep.class);
        assertThat(chosen.description()).isEqualTo("scalar (-Ddfr.stencil=scalar)");
        assertThat(JacobiStencil.select(true, true, "vector")).isInstanceOf(VectorStencilSweep.class);
        assertThat(JacobiStencil.select(true, true, null)).isInstanceOf(VectorStencilSweep.class);
    }

    @Test
    void when_c2_is_off_then_the_scalar_loop_says_why() {
        StencilSweep chosen = JacobiStencil.select(true, false, null);

        assertThat(chosen).isInstanceOf(ScalarStencilSweep.class);
        assertThat(chosen.description()).isEqualTo("scalar (C2 is off, the Vector API needs it)");
    }

    @Test
    void when_a_jvm_runs_without_the_module_or_without_c2_then_it_sweeps_with_the_scalar_loop() throws Exception {
        JacobiProblem problem = new JacobiProblem(37, 29);
        SequentialJacobi here = new SequentialJacobi(problem);
        here.iterate(3);

        assertThat(childJvm()).containsExactly("scalar (jdk.incubator.vector not loaded)", here.digest());
        assertThat(childJvm("--add-modules", "jdk.incubator.vector", "-XX:TieredStopAtLevel=1"))
                .containsExactly("scalar (C2 is off, the Vector API needs it)", here.digest());
    }

    @Test
    void when_naming_vector_widths_then_x86_extensions_else_bits() {
        assertThat(VectorStencilSweep.instructionSet(512, "amd64")).isEqualTo("AVX-512");
        assertThat(VectorStencilSweep.instructionSet(256, "x86_64")).isEqualTo("AVX");
        assertThat(VectorStencilSweep.instructionSet(128, "amd64")).isEqualTo("SSE");
        assertThat(VectorStencilSweep.instructionSet(128, "aarch64")).isEqualTo("128-bit");
    }

    /** The lines {@link PrintStencilImplementation} prints in a new JVM with {@code options}. */
    private static List<String> childJvm(String... options) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(List.of(options));
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), PrintStencilImplementation.class.getName()));
        Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        try {
            assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("%s finished", command).isTrue();
            assertThat(process.exitValue()).as("exit code of %s", command).isZero();
            return new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        } finally {
            process.destroyForcibly();
        }
    }

    /** Doubles of both signs spread over 2^-30..2^30, so that rounding depends on the order of the sums. */
    private static double[] randomMagnitudes(int length, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        double[] values = new double[length];
        for (int i = 0; i < length; i++) {
            values[i] = random.nextDouble(-1.0, 1.0) * Math.scalb(1.0, random.nextInt(-30, 31));
        }
        return values;
    }

    /** The update of DESIGN.md on a double[][] copy of the framed rectangle, one cell at a time. */
    private record Reference(double[] out, double residual) {

        static Reference of(double[] flatIn, double[] flatOut, int stride, int rows, int cols) {
            double[][] u = new double[rows + 2][];
            for (int y = 0; y < rows + 2; y++) {
                u[y] = Arrays.copyOfRange(flatIn, y * stride, (y + 1) * stride);
            }
            double[] out = flatOut.clone();
            double residual = 0;
            for (int y = 1; y <= rows; y++) {
                for (int x = 1; x <= cols; x++) {
                    double next = 0.25 * (u[y - 1][x] + u[y + 1][x] + u[y][x - 1] + u[y][x + 1]);
                    out[y * stride + x] = next;
                    residual += (next - u[y][x]) * (next - u[y][x]);
                }
            }
            return new Reference(out, residual);
        }
    }
}
