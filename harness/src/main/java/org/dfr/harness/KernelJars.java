package org.dfr.harness;

import java.io.IOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.jar.JarFile;
import org.dfr.runtime.kernel.KernelCatalog;
import org.dfr.runtime.kernel.KernelProvider;

/**
 * The kernels a run can use: those on this JVM's class path plus those of the user's
 * {@code --kernel-jar}s. In processes mode the same jars go on every rank JVM's class path, so a rank
 * finds the kernel the same way.
 */
public final class KernelJars {

    private static final Map<List<Path>, KernelCatalog> CATALOGS = new ConcurrentHashMap<>();

    /** Where a jar lists its kernel providers for {@link java.util.ServiceLoader}. */
    static final String SERVICES = "META-INF/services/" + KernelProvider.class.getName();

    private KernelJars() {
    }

    /** A jar that is no jar, or one without providers, would add nothing: said before any run starts. */
    private static void requireProviders(Path jar) {
        try (JarFile file = new JarFile(jar.toFile())) {
            if (file.getEntry(SERVICES) == null) {
                throw new IllegalArgumentException("--kernel-jar " + jar + ": lists no kernel provider (a kernel jar"
                        + " names its providers in " + SERVICES + ")");
            }
        } catch (IOException e) {
            throw new IllegalArgumentException("--kernel-jar " + jar + ": not a jar file (" + e.getMessage() + ")");
        }
    }

    /**
     * The catalog of this class path plus {@code jars}; one class loader per distinct list of jars, kept
     * for the life of the JVM (a kernel's classes must stay the same across the runs of a campaign).
     *
     * @throws IllegalArgumentException naming a jar that is missing or unreadable
     */
    public static KernelCatalog catalog(List<Path> jars) {
        if (jars.isEmpty()) {
            return CATALOGS.computeIfAbsent(List.of(), k -> KernelCatalog.installed());
        }
        List<Path> key = jars.stream().map(p -> p.toAbsolutePath().normalize()).toList();
        for (Path jar : key) {
            if (Files.isDirectory(jar)) {
                throw new IllegalArgumentException("--kernel-jar " + jar + " is a directory: give the jar (a directory of"
                        + " classes is not read; `jar cf` makes one)");
            }
            if (!Files.isRegularFile(jar) || !Files.isReadable(jar)) {
                throw new MissingJarException(jar, "--kernel-jar " + jar + ": no such readable file (a jar with kernel"
                        + " providers listed in " + SERVICES + ")");
            }
            requireProviders(jar);
        }
        return CATALOGS.computeIfAbsent(key, k -> {
            List<URL> urls = new ArrayList<>();
            for (Path jar : k) {
                try {
                    urls.add(jar.toUri().toURL());
                } catch (MalformedURLException e) {
                    throw new IllegalArgumentException("--kernel-jar " + jar + ": not a file path", e);
                }
            }
            return KernelCatalog.load(new URLClassLoader("dfr-kernels", urls.toArray(URL[]::new),
                    KernelJars.class.getClassLoader()));
        });
    }

    /** A kernel jar that is not there (or not readable): a rank started on a host the jar was not copied to. */
    public static final class MissingJarException extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        private final transient Path jar;

        MissingJarException(Path jar, String message) {
            super(message);
            this.jar = jar;
        }

        /** The jar, as an absolute path. */
        public Path jar() {
            return jar;
        }
    }
}
