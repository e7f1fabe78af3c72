package org.dfr.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code dfr run --check-reference}: the digest a run ends with, held against the sequential reference's. */
class CheckReferenceTest {

    /** A kernel an author got wrong: its initial field comes from a random number generator. */
    private static final String NOISY = """
            package com.example.noisy;

            import java.util.List;
            import java.util.concurrent.ThreadLocalRandom;
            import org.dfr.analysis.BlockLayout;
            import org.dfr.runtime.kernel.KernelOption;
            import org.dfr.runtime.kernel.KernelProblem;
            import org.dfr.runtime.kernel.KernelProvider;
            import org.dfr.runtime.kernel.KernelSetup;
            import org.dfr.runtime.stencil.LinearStencil;
            import org.dfr.runtime.stencil.StencilBoundary;
            import org.dfr.runtime.stencil.StencilKernel;
            import org.dfr.runtime.stencil.StencilSetup;

            public final class NoisyProvider implements KernelProvider {
                public String name() { return "noisy1d"; }
                public String description() { return "not deterministic"; }
                public int dimensions() { return 1; }
                public List<KernelOption> options() { return List.of(); }
                public KernelSetup create(KernelProblem problem) {
                    LinearStencil stencil = new LinearStencil(new int[][] {{-1}, {0}, {1}}, new double[] {0.25, 0.5, 0.25});
                    BlockLayout layout = BlockLayout.of(problem.cells(), problem.ranksGrid());
                    return new StencilSetup(StencilKernel.linear(layout, stencil, StencilBoundary.dirichlet((x, y, z) -> 0.0),
                            (x, y, z) -> ThreadLocalRandom.current().nextDouble()));
                }
            }
            """;

    @Test
    void when_theRunMatchesTheReference_then_itSaysSoAndExits0() {
        CliRun r = CliRun.of("run", "--ranks-grid", "2x1", "--cells", "9x7", "--iterations", "4", "--checkpoint-every",
                "2", "--fail", "1@3", "--check-reference");

        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).contains("reference:       the same digest as the sequential reference");
    }

    @Test
    void when_theKernelIsNotDeterministic_then_theCheckSaysDifferentAndExits1(@TempDir Path tmp) throws IOException {
        Path jar = noisyJar(tmp);

        CliRun r = CliRun.of("run", "--kernel-jar", jar.toString(), "--kernel", "noisy1d", "--cells", "64",
                "--ranks-grid", "4", "--iterations", "5", "--check-reference");

        assertThat(r.exitCode()).as(r.err()).isEqualTo(1);
        assertThat(r.out()).contains("reference:       DIFFERENT: the sequential reference gives ");
        assertThat(r.err()).contains("dfr run: the field differs from the sequential reference's in a run without a"
                + " recovery: the kernel is not deterministic");
        assertThat(r.err().strip().lines()).hasSize(1);
    }

    @Test
    void when_aRunThatRecoveredDiffers_then_theLineAsksForTheSameRunWithoutFailures(@TempDir Path tmp)
            throws IOException {
        Path jar = noisyJar(tmp);

        CliRun r = CliRun.of("run", "--kernel-jar", jar.toString(), "--kernel", "noisy1d", "--cells", "64",
                "--ranks-grid", "4", "--iterations", "5", "--checkpoint-every", "2", "--fail", "1@3", "--check-reference");

        assertThat(r.exitCode()).as(r.err()).isEqualTo(1);
        assertThat(r.err()).contains("dfr run: the field differs from the sequential reference's after 1 recovery: run"
                + " the same command without failures; if that one matches, the kernel keeps state outside its buffers");
        assertThat(r.err().strip().lines()).hasSize(1);
    }

    @Test
    void when_benchRecoveryRunsAKernelThatIsNotDeterministic_then_itExits1SayingTheFiguresAreOfAWrongComputation(
            @TempDir Path tmp) throws IOException {
        Path jar = noisyJar(tmp);

        CliRun r = CliRun.of("bench-recovery", "--kernel-jar", jar.toString(), "--kernel", "noisy1d", "--mode", "embedded",
                "--ranks-grid", "4", "--cells", "64", "--iterations", "5", "--checkpoint-every", "10", "--fail", "3@3",
                "--repetitions", "1");

        assertThat(r.exitCode()).as(r.err()).isEqualTo(1);
        assertThat(r.out()).contains("the sequential reference's digest: NO");
        assertThat(r.err()).contains("dfr bench-recovery: a run ended with another field than the sequential reference's");
    }

    /** A jar of one kernel, {@code noisy1d}, built from source. */
    static Path noisyJar(Path dir) throws IOException {
        return TestKernelJar.build(dir, "com.example.noisy.NoisyProvider", NOISY);
    }
}
