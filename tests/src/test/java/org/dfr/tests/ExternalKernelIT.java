package org.dfr.tests;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.dfr.analysis.ConeAnalyzer;
import org.dfr.analysis.RecoveryPlan;
import org.dfr.harness.Campaign;
import org.dfr.harness.KernelJars;
import org.dfr.harness.Mode;
import org.dfr.harness.ProcessLauncher;
import org.dfr.harness.RunConfig;
import org.dfr.harness.RunReport;
import org.dfr.recovery.FaultPlan;
import org.dfr.runtime.ClusterSettings;
import org.dfr.runtime.kernel.KernelCatalog;
import org.dfr.runtime.kernel.KernelChoice;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * The example of docs/writing-a-kernel.md ({@code examples/smooth1d5}) compiled into a jar of its own,
 * as a user would, and run in processes mode with a SIGKILL: the rank JVMs find the kernel through the
 * jar on their class path, and the result is bit-exact.
 *
 * <p>7 cells on 5 partitions: blocks of 2, 2, 1, 1, 1 cells, narrower than the radius-2 stencil on the right, so
 * partition 3 depends on 1, 2 and 4, its second neighbour on the left included (5 rank JVMs: 8 took 10 s more of
 * a verify near its budget):
 * <pre>
 *   cells  |..|..|.|.|.|
 *   part     0  1 2 3 4      kill 3 at the start of 3 (c = 0, m = 2): the cone {3}, then {1, 2, 3, 4}, 5
 *                            partition-iterations (at m = 3 it would hold every partition, and run as global)
 * </pre>
 */
@Isolated // starts rank processes
class ExternalKernelIT {

    private static final Path EXAMPLE = Path.of("..", "examples", "smooth1d5");

    @Test
    void when_kernelComesFromItsOwnJar_then_processesRunWithSigkillRecoversBitExactly(@TempDir Path tmp) throws IOException {
        Path jar = buildExampleJar(tmp);
        assertThat(KernelCatalog.installed().providers()).noneMatch(p -> p.name().equals("smooth1d5"));
        KernelChoice choice = KernelChoice.of("smooth1d5");
        RunConfig config = RunConfig.of(choice, List.of(jar), List.of(7), List.of(5), 12, 5).withMode(Mode.PROCESSES)
                .withFaults(List.of(new FaultPlan.Kill(3, 3, FaultPlan.Point.ITERATION_START)), List.of(), Set.of());

        RunReport report = new ProcessLauncher(new ClusterSettings()).jvmOptions(List.of("-XX:TieredStopAtLevel=1"))
                .runTimeoutMillis(120_000).run(config);

        assertThat(report.kernel()).isEqualTo("smooth1d5");
        assertThat(report.kernelOptions()).containsEntry("centre", "0.5").containsEntry("boundary", "fixed");
        assertThat(report.fieldSha256()).isEqualTo(Campaign.referenceDigest(config));
        ConeAnalyzer analyzer = new ConeAnalyzer(KernelJars.catalog(List.of(jar)).create(choice, new int[] {7},
                new int[] {5}).dependencies());
        assertThat(analyzer.dependencies().inputsOf(3)).containsExactly(1, 2, 3, 4);
        RecoveryPlan plan = analyzer.plan(new int[] {3}, 0, 3);
        assertThat(plan.recomputedPartitionIterations()).as("the cone drawn above").isEqualTo(5);
        assertThat(report.recoveries()).singleElement().satisfies(r -> {
            assertThat(r.recomputedPartitionIterations()).isEqualTo(plan.recomputedPartitionIterations());
            assertThat(r.failureIteration()).isEqualTo(3);
        });
    }

    /** javac + jar of the example's sources, against this JVM's class path (dfr's API). */
    static Path buildExampleJar(Path dir) throws IOException {
        Path classes = Files.createDirectories(dir.resolve("classes"));
        List<String> args = new ArrayList<>(List.of("--release", "17", "-cp", System.getProperty("java.class.path"),
                "-d", classes.toString()));
        try (Stream<Path> sources = Files.walk(EXAMPLE.resolve("src/main/java"))) {
            sources.filter(p -> p.toString().endsWith(".java")).forEach(p -> args.add(p.toString()));
        }
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        assertThat(javac.run(null, null, null, args.toArray(String[]::new))).as("javac exit code").isZero();
        Path jar = dir.resolve("smooth1d5.jar");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
            for (Path root : List.of(classes, EXAMPLE.resolve("src/main/resources"))) {
                try (Stream<Path> files = Files.walk(root)) {
                    for (Path f : files.filter(Files::isRegularFile).toList()) {
                        out.putNextEntry(new JarEntry(root.relativize(f).toString().replace('\\', '/')));
                        Files.copy(f, (OutputStream) out);
                        out.closeEntry();
                    }
                }
            }
        }
        return jar;
    }
}
