package org.dfr.power.sysfs;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** {@link SysfsFileSystem} on {@code java.nio.file.Files}. */
final class NioSysfsFileSystem implements SysfsFileSystem {

    static final NioSysfsFileSystem INSTANCE = new NioSysfsFileSystem();

    private NioSysfsFileSystem() {
    }

    @Override
    public boolean exists(Path path) {
        return Files.exists(path);
    }

    @Override
    public boolean isDirectory(Path path) {
        return Files.isDirectory(path);
    }

    @Override
    public List<String> list(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        List<String> names = new ArrayList<>();
        try (Stream<Path> entries = Files.list(dir)) {
            entries.forEach(p -> names.add(p.getFileName().toString()));
        }
        names.sort(null);
        return names;
    }

    @Override
    public String read(Path path) throws IOException {
        return Files.readString(path, StandardCharsets.UTF_8).strip();
    }

    @Override
    public void write(Path path, String value) throws IOException {
        // no CREATE: a missing attribute is an error, never a new file in /sys
        Files.writeString(path, value, StandardCharsets.UTF_8,
                StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING);
    }

    @Override
    public boolean isWritable(Path path) {
        return Files.isWritable(path);
    }

    @Override
    public boolean isReadable(Path path) {
        return Files.isReadable(path);
    }
}
