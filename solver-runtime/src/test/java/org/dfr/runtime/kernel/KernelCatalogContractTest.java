package org.dfr.runtime.kernel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeMap;
import java.util.function.IntFunction;
import javax.tools.ToolProvider;
import org.dfr.analysis.BlockLayout;
import org.dfr.analysis.PartitionDependencies;
import org.dfr.runtime.PartitionKernel;
import org.dfr.runtime.stencil.LinearStencil;
import org.dfr.runtime.stencil.StencilBoundary;
import org.dfr.runtime.stencil.StencilKernel;
import org.dfr.runtime.stencil.StencilSetup;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Providers that break {@link KernelProvider}'s contract in their name or axes are left out of the catalog and
 * named in its load errors; the others stay usable.
 */
class KernelCatalogContractTest {

    /** A provider of the given name and axes; creating a kernel is never reached here. */
    abstract static class Named implements KernelProvider {
        private final String name;
        private final int dimensions;

        Named(String name, int dimensions) {
            this.name = name;
            this.dimensions = dimensions;
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public String description() {
            return "test provider " + name;
        }

        @Override
        public int dimensions() {
            return dimensions;
        }

        @Override
        public List<KernelOption> options() {
            return List.of();
        }

        @Override
        public KernelSetup create(KernelProblem problem) {
            throw new UnsupportedOperationException("not created in this test");
        }
    }

    public static final class Good extends Named {
        public Good() {
            super("good-1d", 1);
        }
    }

    public static final class UpperCase extends Named {
        public UpperCase() {
            super("Bad_Name", 2);
        }
    }

    public static final class FourAxes extends Named {
        public FourAxes() {
            super("hyper4d", 4);
        }
    }

    public static final class OptionTwice extends Named {
        public OptionTwice() {
            super("option-twice", 1);
        }

        @Override
        public List<KernelOption> options() {
            return List.of(KernelOption.ofDouble("centre", 0.5, "weight"), KernelOption.ofDouble("centre", 0.7, "again"));
        }
    }

    public static final class NoDescription extends Named {
        public NoDescription() {
            super("undescribed", 1);
        }

        @Override
        public String description() {
            return null;
        }
    }

    @Test
    void when_providersBreakTheNameOrAxesRule_then_theyAreLeftOutAndNamed(@TempDir Path dir) throws IOException {
        Path services = Files.createDirectories(dir.resolve("META-INF/services"));
        Files.writeString(services.resolve(KernelProvider.class.getName()), String.join("\n",
                Good.class.getName(), UpperCase.class.getName(), FourAxes.class.getName(), OptionTwice.class.getName(),
                NoDescription.class.getName()) + "\n");

        try (URLClassLoader loader = new URLClassLoader(new URL[] {dir.toUri().toURL()},
                KernelCatalogContractTest.class.getClassLoader())) {
            KernelCatalog catalog = KernelCatalog.load(loader);

            assertThat(catalog.providers()).extracting(KernelProvider::name).contains("good-1d")
                    .doesNotContain("Bad_Name", "hyper4d", "option-twice", "undescribed");
            String listedIn = " (listed in " + dir + ")";
            assertThat(catalog.loadErrors()).containsExactly(
                    UpperCase.class.getName() + ": kernel name 'Bad_Name' is not allowed: lowercase letters, digits and '-'"
                            + listedIn,
                    FourAxes.class.getName() + ": kernel hyper4d takes 4 axes: a kernel takes 1, 2 or 3" + listedIn,
                    OptionTwice.class.getName() + ": kernel option-twice declares option 'centre' twice" + listedIn,
                    NoDescription.class.getName() + ": kernel undescribed has no description(): give one line for"
                            + " `dfr kernels`" + listedIn);
        }
    }

    public static final class Twin extends Named {
        public Twin() {
            super("good-1d", 1);
        }
    }

    /** Writes a service file listing {@code classNames} under {@code dir}, as a kernel jar would hold it. */
    private static void list(Path dir, String... classNames) throws IOException {
        Path services = Files.createDirectories(dir.resolve("META-INF/services"));
        Files.writeString(services.resolve(KernelProvider.class.getName()), String.join("\n", classNames) + "\n");
    }

    private static URLClassLoader loaderOf(Path... dirs) throws IOException {
        URL[] urls = new URL[dirs.length];
        for (int i = 0; i < dirs.length; i++) {
            urls[i] = dirs[i].toUri().toURL();
        }
        return new URLClassLoader(urls, KernelCatalogContractTest.class.getClassLoader());
    }

    @Test
    void when_twoJarsNameTheirKernelsAlike_then_theErrorNamesBothJars(@TempDir Path dir) throws IOException {
        Path first = dir.resolve("first");
        Path second = dir.resolve("second");
        list(first, Good.class.getName());
        list(second, Twin.class.getName());

        try (URLClassLoader loader = loaderOf(first, second)) {
            IllegalArgumentException e = catchThrowableOfType(IllegalArgumentException.class,
                    () -> KernelCatalog.load(loader));

            assertThat(e).hasMessage("two kernels are named 'good-1d': " + Good.class.getName() + " (listed in " + first
                    + ") and " + Twin.class.getName() + " (listed in " + second + "); rename one, or leave one jar out");
        }
    }

    @Test
    void when_aJarListsAClassOfTheJdk_then_itIsNamedAsNotLoaded(@TempDir Path dir) throws IOException {
        // ServiceLoader passes over a class of a named module without an error of its own
        list(dir, "java.lang.String", Good.class.getName());

        try (URLClassLoader loader = loaderOf(dir)) {
            KernelCatalog catalog = KernelCatalog.load(loader);

            assertThat(catalog.providers()).extracting(KernelProvider::name).contains("good-1d");
            assertThat(catalog.loadErrors()).containsExactly("java.lang.String (listed in " + dir + "): a class of"
                    + " module java.base, which ServiceLoader passes over: no provider on the class path (list your class"
                    + " that implements "
                    + KernelProvider.class.getName() + ")");
        }
    }

    @Test
    void when_aKernelComesFromAUsersJar_then_itsJarIsKnown(@TempDir Path dir) throws IOException {
        list(dir, Good.class.getName());

        try (URLClassLoader loader = loaderOf(dir)) {
            KernelCatalog catalog = KernelCatalog.load(loader);
            KernelProvider good = catalog.get("good-1d");

            assertThat(catalog.jarOf(good)).contains(dir.toString());
        }
    }

    public static final class ThrowsInItsConstructor extends Named {
        public ThrowsInItsConstructor() {
            super("ctor-throws", 1);
            throw new IllegalStateException("no licence file");
        }
    }

    @Test
    void when_aProviderCannotBeMade_then_itsCauseIsNamed_andTheOthersStayUsable(@TempDir Path dir) throws Exception {
        // a provider compiled for a newer Java than this one: its class file's major version raised past ours
        Path source = dir.resolve("src/late/Late.java");
        Files.createDirectories(source.getParent());
        Files.writeString(source, "package late;\npublic final class Late {}\n");
        Path classes = Files.createDirectories(dir.resolve("classes"));
        assertThat(ToolProvider.getSystemJavaCompiler().run(null, null, null, "--release", "17", "-d",
                classes.toString(), source.toString())).isZero();
        Path lateClass = classes.resolve("late/Late.class");
        byte[] bytes = Files.readAllBytes(lateClass);
        bytes[6] = 0;
        bytes[7] = (byte) (Runtime.version().feature() + 44 + 8); // 8 feature releases ahead
        Files.write(lateClass, bytes);
        Path services = Files.createDirectories(classes.resolve("META-INF/services"));
        Files.writeString(services.resolve(KernelProvider.class.getName()), String.join("\n",
                ThrowsInItsConstructor.class.getName(), "late.Late", Good.class.getName()) + "\n");

        try (URLClassLoader loader = new URLClassLoader(new URL[] {classes.toUri().toURL()},
                KernelCatalogContractTest.class.getClassLoader())) {
            KernelCatalog catalog = KernelCatalog.load(loader);

            assertThat(catalog.providers()).extracting(KernelProvider::name).contains("good-1d")
                    .doesNotContain("ctor-throws");
            assertThat(catalog.loadErrors()).hasSize(2);
            assertThat(catalog.loadErrors().get(0)).contains("could not be instantiated: java.lang.IllegalStateException:"
                    + " no licence file at " + ThrowsInItsConstructor.class.getName() + ".<init>(KernelCatalogContractTest.java:");
            assertThat(catalog.loadErrors().get(0)).endsWith(" (listed in " + classes + ")");
            assertThat(catalog.loadErrors().get(1)).contains("UnsupportedClassVersionError")
                    .contains("build it with --release 17");
        }
    }

    @Test
    void when_twoProvidersMissTheSameClass_then_bothAreNamed_andTheOnesAfterThemStayUsable(@TempDir Path dir)
            throws Exception {
        Path src = Files.createDirectories(dir.resolve("src/gone"));
        Files.writeString(src.resolve("Base.java"), "package gone;\npublic abstract class Base implements "
                + KernelProvider.class.getName() + " {}\n");
        Files.writeString(src.resolve("P1.java"), "package gone;\npublic abstract class P1 extends Base {}\n");
        Files.writeString(src.resolve("P2.java"), "package gone;\npublic abstract class P2 extends Base {}\n");
        Path classes = Files.createDirectories(dir.resolve("classes"));
        assertThat(ToolProvider.getSystemJavaCompiler().run(null, null, null, "--release", "17", "-cp",
                System.getProperty("java.class.path"), "-d", classes.toString(), src.resolve("Base.java").toString(),
                src.resolve("P1.java").toString(), src.resolve("P2.java").toString())).isZero();
        Files.delete(classes.resolve("gone/Base.class")); // the jar was built without the class both extend
        Path services = Files.createDirectories(classes.resolve("META-INF/services"));
        Files.writeString(services.resolve(KernelProvider.class.getName()),
                String.join("\n", "gone.P1", "gone.P2", Good.class.getName()) + "\n");

        try (URLClassLoader loader = new URLClassLoader(new URL[] {classes.toUri().toURL()},
                KernelCatalogContractTest.class.getClassLoader())) {
            KernelCatalog catalog = KernelCatalog.load(loader);

            assertThat(catalog.providers()).extracting(KernelProvider::name).contains("good-1d");
            // the error names the missing class, not the provider: the jar is the only one this loader adds
            assertThat(catalog.loadErrors()).hasSize(2).allSatisfy(e -> assertThat(e).contains("gone/Base")
                    .endsWith(" (listed in " + classes + ")"));
        }
    }

    /** A 1D stencil kernel whose partition 1 says it has no cell. */
    public static final class EmptyPartition extends Named {
        public EmptyPartition() {
            super("empty-partition", 1);
        }

        @Override
        public KernelSetup create(KernelProblem problem) {
            KernelSetup real = new StencilSetup(StencilKernel.linear(BlockLayout.of(problem.cells(), problem.ranksGrid()),
                    new LinearStencil(new int[][] {{-1}, {0}, {1}}, new double[] {0.25, 0.5, 0.25}),
                    StencilBoundary.dirichlet((x, y, z) -> 1.0), (x, y, z) -> 0.0));
            PartitionKernel k = real.kernel();
            PartitionKernel lying = new PartitionKernel() {
                public PartitionDependencies dependencies() {
                    return k.dependencies();
                }

                public double[] initialState(int partition) {
                    return k.initialState(partition);
                }

                public int haloLength(int from, int to) {
                    return k.haloLength(from, to);
                }

                public void packHalo(int from, double[] fromState, int to, double[] out) {
                    k.packHalo(from, fromState, to, out);
                }

                public void unpackHalo(int to, double[] toState, int from, double[] in) {
                    k.unpackHalo(to, toState, from, in);
                }

                public double update(int partition, double[] in, double[] out) {
                    return k.update(partition, in, out);
                }

                public long cellsOf(int partition) {
                    return partition == 1 ? 0 : k.cellsOf(partition);
                }
            };
            return new KernelSetup() {
                public PartitionKernel kernel() {
                    return lying;
                }

                public ReferenceSolver reference() {
                    return real.reference();
                }

                public String digest(IntFunction<double[]> states) {
                    return real.digest(states);
                }

                public long cellCount() {
                    return real.cellCount();
                }
            };
        }
    }

    @Test
    void when_aKernelSaysAPartitionHasNoCell_then_itsBugIsNamedWithThePartition(@TempDir Path dir) throws IOException {
        Path services = Files.createDirectories(dir.resolve("META-INF/services"));
        Files.writeString(services.resolve(KernelProvider.class.getName()), EmptyPartition.class.getName() + "\n");

        try (URLClassLoader loader = new URLClassLoader(new URL[] {dir.toUri().toURL()},
                KernelCatalogContractTest.class.getClassLoader())) {
            KernelCatalog catalog = KernelCatalog.load(loader);

            assertThat(catchThrowableOfType(KernelContractException.class,
                    () -> catalog.create(new KernelChoice("empty-partition", new TreeMap<>()), new int[] {64},
                            new int[] {4})))
                    .hasMessageStartingWith("kernel empty-partition's cellsOf(1) returned 0: every partition has at"
                            + " least 1 cell");
        }
    }
}
