package org.dfr.power.sysfs;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.NoSuchFileException;
import java.nio.file.StandardCopyOption;
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

    /**
     * Writes {@code value} and a newline, as {@code echo} does and as the kernel shows its attributes. An attribute of
     * the kernel's sysfs is written in place (the kernel parses the write whole). A file of a fake tree (a regular file
     * system) is replaced atomically: truncated and rewritten in place, a reader saw it empty for a moment, and it was
     * left without its newline, unlike the tree's untouched files.
     */
    @Override
    public void write(Path path, String value) throws IOException {
        if (!Files.exists(path)) {
            // never a new file in /sys
            throw new NoSuchFileException(path.toString());
        }
        String line = value + "\n";
        if ("sysfs".equals(Files.getFileStore(path).type())) {
            Files.writeString(path, line, StandardCharsets.UTF_8, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING);
            return;
        }
        if (!Files.isWritable(path)) {
            // a rename would replace a read-only attribute the kernel would refuse to write
            throw new AccessDeniedException(path.toString());
        }
        // a fake tree's attribute may be a link (as sysfs links its cpu directories): the file behind it is replaced
        Path target = path.toRealPath();
        Path temp = Files.createTempFile(target.getParent(), "." + target.getFileName(), ".tmp");
        try {
            Files.writeString(temp, line, StandardCharsets.UTF_8);
            try {
                Files.setPosixFilePermissions(temp, Files.getPosixFilePermissions(target));
            } catch (UnsupportedOperationException e) {
                // not a POSIX file system: the temp file's own permissions stay
            }
            Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(temp);
        }
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
