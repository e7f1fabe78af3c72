package org.dfr.cli.options;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;

/** Checks on files named by options, made before any work starts. */
public final class CliFiles {

    private CliFiles() {
    }

    /** An empty path ({@code --out ""}) is this directory to Java: refused rather than written into. */
    private static void requireNonEmpty(CommandSpec spec, String option, Path path, String what) {
        if (path.toString().isBlank()) {
            throw new ParameterException(spec.commandLine(), option + " is empty: give " + what);
        }
    }

    /**
     * Creates {@code file}'s directory if needed; fails with a usage error when it cannot be created or
     * written, or {@code file} is a directory. Does nothing for a null file.
     */
    public static void requireWritableTarget(CommandSpec spec, String option, Path file) {
        if (file == null) {
            return;
        }
        option = asTyped(spec, option);
        requireNonEmpty(spec, option, file, "a file name");
        if (Files.isDirectory(file)) {
            throw new ParameterException(spec.commandLine(), option + " " + file + " is a directory; give a file name");
        }
        requireWritableDirectory(spec, option + " " + file + ": directory", file.toAbsolutePath().getParent());
    }

    /**
     * Creates directory {@code dir} if needed and proves it writable by creating and deleting a file in it
     * ({@code Files.isWritable} answers yes to root even for {@code /proc}, whose writes then fail after the
     * work); fails with a usage error naming {@code option} otherwise. Does nothing for a null directory.
     */
    public static void requireWritableDirectory(CommandSpec spec, String option, Path dir) {
        if (dir == null) {
            return;
        }
        requireNonEmpty(spec, option, dir, "a directory");
        try {
            Files.createDirectories(dir);
        } catch (IOException | RuntimeException e) {
            throw new ParameterException(spec.commandLine(), option + " " + dir + " cannot be created (" + reason(e) + ")");
        }
        try {
            Files.delete(Files.createTempFile(dir, ".dfr-write-test-", ".tmp"));
        } catch (NoSuchFileException e) {
            // the directory exists (created above), yet a file cannot be made in it: /proc, /sys and the like
            throw new ParameterException(spec.commandLine(), option + " " + dir + " is not writable (no file can be"
                    + " created in it: a virtual file system such as /proc or /sys?)");
        } catch (IOException | RuntimeException e) {
            throw new ParameterException(spec.commandLine(), option + " " + dir + " is not writable (" + reason(e) + ")");
        }
    }

    /** Fails with a usage error naming {@code option} when {@code dir} is given but is no directory. */
    public static void requireExistingDirectory(CommandSpec spec, String option, Path dir, String what) {
        if (dir != null && !Files.isDirectory(dir)) {
            throw new ParameterException(spec.commandLine(), option + " " + dir + (Files.exists(dir)
                    ? " is a file, not a directory" : ": no such directory") + " (give " + what + ")");
        }
    }

    /** What went wrong in words: file system exceptions carry only the path as their message. */
    private static String reason(Exception e) {
        if (e instanceof FileAlreadyExistsException f) {
            return f.getFile() + " exists and is not a directory";
        }
        if (e instanceof FileSystemException f && f.getReason() != null) {
            return f.getReason();
        }
        if (e instanceof FileSystemException) {
            return e.getClass().getSimpleName().replace("Exception", "").replaceAll("([a-z])([A-Z])", "$1 $2").toLowerCase();
        }
        return e.getMessage();
    }

    /**
     * The name of {@code option} as the command line gave it: {@code --json} for an option named {@code --report}
     * with that alias, so that a message names what the user typed (it named the other alias).
     */
    static String asTyped(CommandSpec spec, String option) {
        OptionSpec o = spec.findOption(option);
        if (o == null || spec.commandLine() == null || spec.commandLine().getParseResult() == null) {
            return option;
        }
        for (String arg : spec.commandLine().getParseResult().originalArgs()) {
            for (String name : o.names()) {
                if (arg.equals(name) || arg.startsWith(name + "=")) {
                    return name;
                }
            }
        }
        return option;
    }
}
