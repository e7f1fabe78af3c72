package org.dfr.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A kernel that breaks its contract is its author's bug: one line naming the kernel and the rule, exit code 1,
 * not "bad arguments" (exit code 2, "dfr run --help lists the options"), which sent authors to their command line.
 */
class KernelBugsTest {

    private static String provider(String name, String options, String createBody) {
        return """
                package com.example.bugs;

                import java.util.List;
                import org.dfr.analysis.DependencyDeclarations;
                import org.dfr.runtime.kernel.KernelOption;
                import org.dfr.runtime.kernel.KernelProblem;
                import org.dfr.runtime.kernel.KernelProvider;
                import org.dfr.runtime.kernel.KernelSetup;

                public final class Bug implements KernelProvider {
                    public String name() { return "%s"; }
                    public String description() { return "a kernel with a bug"; }
                    public int dimensions() { return 1; }
                    public List<KernelOption> options() { return %s; }
                    public KernelSetup create(KernelProblem problem) {
                        %s
                    }
                }
                """.formatted(name, options, createBody);
    }

    @Test
    void when_aKernelClaimsSymmetryItDoesNotKeep_then_itsBugIsNamed_andExit1(@TempDir Path tmp) throws IOException {
        // partition 1 reads 0, but 0 does not read 1
        Path jar = TestKernelJar.build(tmp, "com.example.bugs.Bug", provider("lopsided", "List.of()", """
                DependencyDeclarations.fromAdjacency(new int[][] {{0}, {0, 1}}, true);
                throw new AssertionError("not reached");"""));

        CliRun r = CliRun.of("run", "--kernel-jar", jar.toString(), "--kernel", "lopsided", "--cells", "8",
                "--ranks-grid", "2", "--iterations", "3");

        assertThat(r.exitCode()).as(r.err()).isEqualTo(1);
        assertThat(r.err().strip().lines()).hasSize(1);
        assertThat(r.err()).startsWith("dfr run: kernel lopsided declares its dependencies wrongly: declared symmetric,"
                        + " but partition 1 lists input 0 while partition 0 does not list 1 (a bug in the kernel")
                .doesNotContain("--help");
    }

    /** A kernel that ignores the grid it is given: plan blamed --lost ("grid 4 has partitions 0..2"). */
    @ParameterizedTest
    @ValueSource(strings = {"plan --grid 4 --lost 3 --checkpoint-iteration 0 --failure-iteration 2",
            "run --ranks-grid 4 --iterations 3"})
    void when_aKernelDeclaresAnotherPartitionCountThanTheGrid_then_itsBugIsNamed_andExit1(String command,
            @TempDir Path tmp) throws IOException {
        Path jar = TestKernelJar.build(tmp, "com.example.bugs.Bug", provider("three", "List.of()", """
                org.dfr.analysis.BlockLayout layout = org.dfr.analysis.BlockLayout.of(problem.cells(), new int[] {3});
                return new org.dfr.runtime.stencil.StencilSetup(org.dfr.runtime.stencil.StencilKernel.linear(layout,
                        new org.dfr.runtime.stencil.LinearStencil(new int[][] {{-1}, {0}, {1}},
                                new double[] {0.25, 0.5, 0.25}),
                        org.dfr.runtime.stencil.StencilBoundary.dirichlet((x, y, z) -> 0.0), (x, y, z) -> x));"""));
        List<String> args = new ArrayList<>(List.of(command.split(" ")));
        args.addAll(List.of("--kernel-jar", jar.toString(), "--kernel", "three", "--cells", "12"));

        CliRun r = CliRun.of(args.toArray(String[]::new));

        assertThat(r.exitCode()).as(r.err()).isEqualTo(1);
        assertThat(r.err().strip().lines()).as(r.err()).hasSize(1);
        assertThat(r.err()).contains("kernel three declares 3 partitions for --ranks-grid 4, which has 4 (a bug in the"
                + " kernel, not in the command line").doesNotContain("--help").doesNotContain("--lost");
    }

    @Test
    void when_aKernelReadsAnOptionItDoesNotDeclare_then_itsBugIsNamed_andExit1(@TempDir Path tmp) throws IOException {
        Path jar = TestKernelJar.build(tmp, "com.example.bugs.Bug", provider("forgetful",
                "List.of(KernelOption.ofDouble(\"centre\", 0.5, \"weight\"))", """
                problem.options().getDouble("centr");
                throw new AssertionError("not reached");"""));

        CliRun r = CliRun.of("plan", "--kernel-jar", jar.toString(), "--kernel", "forgetful", "--cells", "8",
                "--grid", "2", "--lost", "1", "--checkpoint-iteration", "0", "--failure-iteration", "2");

        assertThat(r.exitCode()).as(r.err()).isEqualTo(1);
        assertThat(r.err().strip().lines()).hasSize(1);
        assertThat(r.err()).startsWith("dfr plan: the kernel reads option 'centr', which its options() do not declare"
                + " (declared: [centre]): a bug in the kernel");
    }

    /** A provider that cannot be listed is named with the jar that lists it: the author may have several. */
    @Test
    void when_aJarsProviderBreaksTheNameRule_then_kernelsNamesItAndItsJar_andExit1(@TempDir Path tmp) throws IOException {
        Path jar = TestKernelJar.build(tmp, "com.example.bugs.Bug", provider("Bad_Name", "List.of()",
                "throw new AssertionError(\"not reached\");"));

        CliRun r = CliRun.of("kernels", "--kernel-jar", jar.toString());

        assertThat(r.exitCode()).as(r.err()).isEqualTo(1);
        assertThat(r.out()).contains("not loaded:     com.example.bugs.Bug: kernel name 'Bad_Name' is not allowed:"
                + " lowercase letters, digits and '-' (listed in " + jar.toAbsolutePath().normalize() + ")");
    }

    @Test
    void when_kernelsListsAJarsKernel_then_itsLineNamesTheJar_andBuiltInLinesNone(@TempDir Path tmp) throws IOException {
        Path jar = TestKernelJar.build(tmp, "com.example.bugs.Bug", provider("from-a-jar", "List.of()",
                "throw new AssertionError(\"not reached\");"));

        CliRun r = CliRun.of("kernels", "--kernel-jar", jar.toString());

        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out().lines().filter(l -> l.startsWith("from-a-jar "))).singleElement().asString()
                .endsWith("a kernel with a bug [from " + jar.toAbsolutePath().normalize() + "]");
        assertThat(r.out().lines().filter(l -> l.startsWith("jacobi2d5 "))).singleElement().asString()
                .endsWith("(default)");
    }

    /**
     * The initial state throws at the last interior cell: on one rank first in the kernel's warm-up (partition 0,
     * before any rank starts), on two as rank 1 starts. Each line names where the kernel threw and when: the warm-up,
     * or the rank's start, not the cluster's formation (which sent an author to the network).
     */
    @Test
    void when_aKernelsInitialStateThrows_then_theLineNamesTheWarmUpOrTheRanksStart(@TempDir Path tmp)
            throws IOException {
        Path jar = TestKernelJar.build(tmp, "com.example.bugs.Bug", provider("brittle", "List.of()", """
                org.dfr.analysis.BlockLayout layout = org.dfr.analysis.BlockLayout.of(problem.cells(), problem.ranksGrid());
                int last = problem.cells()[0];
                return new org.dfr.runtime.stencil.StencilSetup(org.dfr.runtime.stencil.StencilKernel.linear(layout,
                        new org.dfr.runtime.stencil.LinearStencil(new int[][] {{-1}, {0}, {1}}, new double[] {0.25, 0.5, 0.25}),
                        org.dfr.runtime.stencil.StencilBoundary.dirichlet((x, y, z) -> 0.0), (x, y, z) -> {
                            if (x == last) {
                                throw new ArithmeticException("boom at cell " + x);
                            }
                            return 0.0;
                        }));"""));

        CliRun alone = CliRun.of("run", "--kernel-jar", jar.toString(), "--kernel", "brittle", "--cells", "8",
                "--ranks-grid", "1", "--iterations", "3");
        Set<HazelcastInstance> before = Set.copyOf(Hazelcast.getAllHazelcastInstances());
        CliRun two = CliRun.of("run", "--kernel-jar", jar.toString(), "--kernel", "brittle", "--cells", "8",
                "--ranks-grid", "2", "--iterations", "3");
        // rank 1's member had joined when its kernel threw: it is terminated with the others, none stays running here
        assertThat(Hazelcast.getAllHazelcastInstances()).as("members left running in this JVM")
                .allMatch(before::contains);

        assertThat(alone.exitCode()).as(alone.err()).isEqualTo(1);
        assertThat(alone.err().strip().lines()).hasSize(1);
        assertThat(alone.err()).startsWith("dfr run: the run failed: the kernel's warm-up on partition 0 (before the"
                + " ranks start) failed: java.lang.ArithmeticException: boom at cell 8 at com.example.bugs.Bug.");
        assertThat(two.exitCode()).as(two.err()).isEqualTo(1);
        assertThat(two.err().strip().lines()).hasSize(1);
        assertThat(two.err()).startsWith("dfr run: the run failed: rank 1's start failed: java.lang.ArithmeticException:"
                + " boom at cell 8 at com.example.bugs.Bug.").doesNotContain("formation");
    }

    /**
     * An experiment of a kernel whose every run fails: it stops after three failed runs (the preset would run 16),
     * and writes no statistics of nothing (summary.csv with n = 0, plots without bars, a page of them), only the
     * record: summary.json with the failures, runs.csv, samples.csv.
     */
    @Test
    void when_everyRunOfAnExperimentFails_then_itStopsAfterThreeAndWritesNoStatistics(@TempDir Path tmp)
            throws IOException {
        Path jar = TestKernelJar.build(tmp, "com.example.bugs.Bug", provider("brittle", "List.of()", """
                org.dfr.analysis.BlockLayout layout = org.dfr.analysis.BlockLayout.of(problem.cells(), problem.ranksGrid());
                return new org.dfr.runtime.stencil.StencilSetup(org.dfr.runtime.stencil.StencilKernel.linear(layout,
                        new org.dfr.runtime.stencil.LinearStencil(new int[][] {{-1}, {0}, {1}}, new double[] {0.25, 0.5, 0.25}),
                        org.dfr.runtime.stencil.StencilBoundary.dirichlet((x, y, z) -> 0.0), (x, y, z) -> {
                            throw new ArithmeticException("boom at cell " + x);
                        }));"""));
        Path out = tmp.resolve("experiment");

        CliRun r = CliRun.of("experiment", "--kernel-jar", jar.toString(), "--kernel", "brittle", "--cells", "8",
                "--ranks-grid", "2", "--iterations", "3", "--checkpoint-every", "3", "--fail", "1@2",
                "--variants", "dfr", "--repetitions", "5", "--warmups", "0", "--out", out.toString());

        assertThat(r.exitCode()).as(r.err()).isEqualTo(1);
        assertThat(r.out()).contains("its first 3 runs failed and none succeeded")
                .contains("no measured run succeeded: no summary.csv, plots or index.html").doesNotContain("n/a");
        assertThat(r.out().lines().filter(l -> l.startsWith("failed: run "))).hasSize(3);
        assertThat(out.resolve("summary.json")).exists();
        assertThat(out.resolve("runs.csv")).exists();
        assertThat(out.resolve("summary.csv")).doesNotExist();
        assertThat(out.resolve("index.html")).doesNotExist();
        assertThat(out.resolve("recovery.png")).doesNotExist();
    }
}
