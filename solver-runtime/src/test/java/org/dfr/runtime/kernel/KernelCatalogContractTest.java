package org.dfr.runtime.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
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

    @Test
    void when_providersBreakTheNameOrAxesRule_then_theyAreLeftOutAndNamed(@TempDir Path dir) throws IOException {
        Path services = Files.createDirectories(dir.resolve("META-INF/services"));
        Files.writeString(services.resolve(KernelProvider.class.getName()), String.join("\n",
                Good.class.getName(), UpperCase.class.getName(), FourAxes.class.getName()) + "\n");

        try (URLClassLoader loader = new URLClassLoader(new URL[] {dir.toUri().toURL()},
                KernelCatalogContractTest.class.getClassLoader())) {
            KernelCatalog catalog = KernelCatalog.load(loader);

            assertThat(catalog.providers()).extracting(KernelProvider::name).contains("good-1d")
                    .doesNotContain("Bad_Name", "hyper4d");
            assertThat(catalog.loadErrors()).containsExactly(
                    UpperCase.class.getName() + ": kernel name 'Bad_Name' is not allowed: lowercase letters, digits and '-'",
                    FourAxes.class.getName() + ": kernel hyper4d takes 4 axes: a kernel takes 1, 2 or 3");
        }
    }
}
