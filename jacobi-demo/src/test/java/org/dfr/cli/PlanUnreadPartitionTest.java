package org.dfr.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code dfr plan} says when no other partition reads the lost one: a run's recovery then starts one iteration
 * later than the kill's (the survivors need not wait for the lost data), which a solver author met as a report
 * whose failure iteration was one past the plan's.
 */
class PlanUnreadPartitionTest {

    /** u'[x] = u[x] - 0.5 (u[x] - u[x-1]): partition p reads p-1 and itself, so the last one is read by none. */
    private static final String UPWIND = """
            package com.example.upwind;

            import java.util.List;
            import org.dfr.analysis.BlockLayout;
            import org.dfr.runtime.kernel.KernelOption;
            import org.dfr.runtime.kernel.KernelProblem;
            import org.dfr.runtime.kernel.KernelProvider;
            import org.dfr.runtime.kernel.KernelSetup;
            import org.dfr.runtime.stencil.LinearStencil;
            import org.dfr.runtime.stencil.StencilBoundary;
            import org.dfr.runtime.stencil.StencilKernel;
            import org.dfr.runtime.stencil.StencilSetup;

            public final class Upwind implements KernelProvider {
                public String name() { return "upwind"; }
                public String description() { return "1D upwind advection"; }
                public int dimensions() { return 1; }
                public List<KernelOption> options() { return List.of(); }
                public KernelSetup create(KernelProblem problem) {
                    problem.requireShape(name(), 1);
                    LinearStencil stencil = new LinearStencil(new int[][] {{-1}, {0}}, new double[] {0.5, 0.5});
                    StencilBoundary boundary = StencilBoundary.dirichlet((x, y, z) -> 1.0);
                    return new StencilSetup(StencilKernel.linear(BlockLayout.of(problem.cells(), problem.ranksGrid()),
                            stencil, boundary, (x, y, z) -> 0.0));
                }
            }
            """;

    @Test
    void when_noOtherPartitionReadsTheLostOne_then_thePlanSaysTheRunsFailureIterationMayBeOneLater(@TempDir Path tmp)
            throws IOException {
        Path jar = TestKernelJar.build(tmp, "com.example.upwind.Upwind", UPWIND);

        CliRun last = CliRun.of("plan", "--kernel-jar", jar.toString(), "--kernel", "upwind", "--cells", "40",
                "--grid", "4", "--lost", "3", "--checkpoint-iteration", "0", "--failure-iteration", "5");
        CliRun inner = CliRun.of("plan", "--kernel-jar", jar.toString(), "--kernel", "upwind", "--cells", "40",
                "--grid", "4", "--lost", "1", "--checkpoint-iteration", "0", "--failure-iteration", "5");

        assertThat(last.exitCode()).as(last.err()).isZero();
        assertThat(last.out()).contains("note: no other partition reads partition 3, so no survivor waits for its"
                + " data: in a run the survivors may compute iteration 5 before they stop, and the report's"
                + " failureIteration is then 6");
        assertThat(inner.exitCode()).as(inner.err()).isZero();
        assertThat(inner.out()).doesNotContain("note: no other partition reads");
    }
}
