package org.dfr.cli.options;

import java.nio.file.Files;
import java.nio.file.Path;
import org.dfr.harness.RankJvmPool;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/** Where the pool of warm rank JVMs lives: {@code dfr pool ...} and {@code dfr run --pool} share it. */
public final class PoolDirectoryOption {

    @Option(names = "--pool-dir", paramLabel = "DIR",
            description = "The pool's directory (default: ~/.dfr/pool, or -D" + RankJvmPool.DIRECTORY_PROPERTY + ").")
    Path directory;

    /** Whether {@code --pool-dir} was given. */
    public boolean given() {
        return directory != null;
    }

    /** The pool, after checking that the directory is not a file. */
    public RankJvmPool pool(CommandLine commandLine) {
        Path dir = directory != null ? directory : RankJvmPool.defaultDirectory();
        if (Files.exists(dir) && !Files.isDirectory(dir)) {
            throw new CommandLine.ParameterException(commandLine, "--pool-dir " + dir + " is not a directory");
        }
        return new RankJvmPool(dir);
    }
}
