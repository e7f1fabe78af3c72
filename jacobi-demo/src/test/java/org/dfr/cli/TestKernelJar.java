package org.dfr.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import javax.tools.ToolProvider;

/** A kernel jar built from one provider's source, as an author would build theirs (javac --release 17, jar). */
final class TestKernelJar {

    private TestKernelJar() {
    }

    /**
     * @param providerClass the provider's fully qualified name
     * @param source        its source, one top-level class
     */
    static Path build(Path dir, String providerClass, String source) throws IOException {
        Path file = dir.resolve("src/" + providerClass.replace('.', '/') + ".java");
        Files.createDirectories(file.getParent());
        Files.writeString(file, source);
        Path classes = Files.createDirectories(dir.resolve("classes"));
        assertThat(ToolProvider.getSystemJavaCompiler().run(null, null, null, "--release", "17", "-cp",
                System.getProperty("java.class.path"), "-d", classes.toString(), file.toString())).as("javac").isZero();
        Path jar = dir.resolve(providerClass.substring(providerClass.lastIndexOf('.') + 1) + ".jar");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar));
             Stream<Path> files = Files.walk(classes)) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                out.putNextEntry(new JarEntry(classes.relativize(f).toString().replace('\\', '/')));
                Files.copy(f, (OutputStream) out);
                out.closeEntry();
            }
            out.putNextEntry(new JarEntry("META-INF/services/org.dfr.runtime.kernel.KernelProvider"));
            out.write((providerClass + "\n").getBytes(StandardCharsets.UTF_8));
            out.closeEntry();
        }
        return jar;
    }
}
