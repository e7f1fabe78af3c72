package org.dfr.power.sysfs;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * The few file operations power control needs. Production code uses only this interface; the real
 * implementation is {@link #real()}. Sysfs attributes are small text files written in one call, and the
 * kernel may store something other than what was written (it clamps), so callers read back what they wrote.
 */
public interface SysfsFileSystem {

    /** @return whether {@code path} exists (following links) */
    boolean exists(Path path);

    /** @return whether {@code path} is a directory (following links) */
    boolean isDirectory(Path path);

    /** @return the names of the entries of {@code dir}, sorted; empty when it does not exist */
    List<String> list(Path dir) throws IOException;

    /** @return the content of {@code path} without surrounding white space */
    String read(Path path) throws IOException;

    /**
     * Writes {@code value} to an existing attribute file, in one write call, without creating it.
     *
     * @throws java.nio.file.AccessDeniedException when the caller may not write it
     */
    void write(Path path, String value) throws IOException;

    /** @return whether this process may write {@code path} (as {@code access(W_OK)}) */
    boolean isWritable(Path path);

    /** @return whether this process may read {@code path} */
    boolean isReadable(Path path);

    /** @return the implementation on {@code java.nio.file.Files} */
    static SysfsFileSystem real() {
        return NioSysfsFileSystem.INSTANCE;
    }
}
