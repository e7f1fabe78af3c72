package org.dfr.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/** Checks on files named by options, made before any work starts. */
final class CliFiles {

    private CliFiles() {
    }

    /**
     * Creates {@code file}'s directory if needed; fails with a usage error when it cannot be created or
     * written, or {@code file} is a directory. Does nothing for a null file.
     */
    static void requireWritableTarget(CommandSpec spec, String option, Path file) {
        if (file == null) {
            return;
        }
        Path dir = file.toAbsolutePath().getParent();
        if (Files.isDirectory(file)) {
            throw new ParameterException(spec.commandLine(), option + " " + file + " is a directory; give a file name");
        }
        try {
            Files.createDirectories(dir);
        } catch (IOException | RuntimeException e) {
            throw new ParameterException(spec.commandLine(), option + " " + file + ": directory " + dir
                    + " cannot be created (" + e.getMessage() + ")");
        }
        if (!Files.isWritable(dir)) {
            throw new ParameterException(spec.commandLine(), option + " " + file + ": directory " + dir
                    + " is not writable");
        }
    }
}
