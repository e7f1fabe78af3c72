package org.dfr.cli.logging;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A log file per rank process, {@code rank-R.log} in one directory: the rank's runtime at DEBUG and Hazelcast at INFO,
 * while the console prints what it always does ({@code dfr-rank-log.xml}). For a failure that the console's warnings
 * do not explain: a campaign keeps them with a failing trial's log.
 */
public final class RankLogFiles {

    /** The ranks' log configuration, a resource of this application. */
    static final String CONFIGURATION = "dfr-rank-log.xml";
    /** The system property that names the directory in {@link #CONFIGURATION}. */
    static final String DIRECTORY_PROPERTY = "dfr.rankLogDirectory";
    private static final Pattern NAME = Pattern.compile("rank-(\\d+)\\.log");

    private RankLogFiles() {
    }

    /** The rank JVMs' options that make every rank write {@code rank-R.log} in {@code directory}. */
    public static List<String> jvmOptions(Path directory) {
        return List.of("-Dlogback.configurationFile=" + CONFIGURATION,
                "-D" + DIRECTORY_PROPERTY + "=" + directory.toAbsolutePath());
    }

    /** The rank logs in {@code directory}, by rank id. */
    public static List<Path> in(Path directory) throws IOException {
        if (!Files.isDirectory(directory)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(directory)) {
            return files.filter(f -> NAME.matcher(f.getFileName().toString()).matches())
                    .sorted(Comparator.comparingInt(RankLogFiles::rank)).toList();
        }
    }

    /** The rank whose log {@code file} is. */
    public static int rank(Path file) {
        Matcher m = NAME.matcher(file.getFileName().toString());
        if (!m.matches()) {
            throw new IllegalArgumentException(file + " is not a rank's log (rank-R.log)");
        }
        return Integer.parseInt(m.group(1));
    }

    /** Deletes the rank logs in {@code directory} (before the next run writes its own). */
    public static void deleteIn(Path directory) throws IOException {
        for (Path f : in(directory)) {
            Files.deleteIfExists(f);
        }
    }
}
