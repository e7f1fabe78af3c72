package org.dfr.harness;

import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Properties;
import org.dfr.power.HostName;

/**
 * Where and how a report was made, so that a figure can be traced back: dfr version and git commit,
 * JVM, OS, CPU model, host name, start time (ISO-8601), the full command line, and how busy the machine was
 * when the command started (figures of a shared, noisy machine are read against it).
 *
 * @param gitDirty           whether the build's working tree had changes not committed ({@code gitCommit} is then not
 *                           all of the code that ran); null when not known (a build outside a git checkout)
 * @param commandLine        the {@code dfr} arguments as given (set by the command line; empty from the API)
 * @param cpus               the processors this JVM may use
 * @param loadAverageAtStart the machine's load averages over 1, 5 and 15 minutes ({@code /proc/loadavg}) when the
 *                           command started (from the API: when this class was loaded); null where there are none
 */
public record Provenance(String dfrVersion, String gitCommit, Boolean gitDirty, String jvm, String os, String cpuModel,
                         String hostName, String startedAt, List<String> commandLine, Integer cpus,
                         List<Double> loadAverageAtStart) {

    /** Set once by the command line so that every report of this JVM names it. */
    private static volatile List<String> commandLineOfThisJvm = List.of();
    private static volatile List<Double> loadAtStart = readLoadAverage();
    private static final Instant STARTED = Instant.ofEpochMilli(ManagementFactory.getRuntimeMXBean().getStartTime());

    /** Records the {@code dfr} arguments of this JVM, and the load average as the command starts. */
    public static void recordCommandLine(List<String> args) {
        commandLineOfThisJvm = List.copyOf(args);
        loadAtStart = readLoadAverage();
    }

    /** The provenance of this JVM. */
    public static Provenance current() {
        Properties build = buildProperties();
        String dirty = filtered(build, "git.dirty");
        return new Provenance(filtered(build, "version"), filtered(build, "git.commit"),
                "unknown".equals(dirty) ? null : Boolean.valueOf(dirty),
                System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"),
                System.getProperty("os.name") + " " + System.getProperty("os.version") + " " + System.getProperty("os.arch"),
                readCpuModel(), HostName.local(), STARTED.toString(), commandLineOfThisJvm,
                Runtime.getRuntime().availableProcessors(), loadAtStart);
    }

    /**
     * This provenance (a rank's, of the machine that wrote the report) with the command line of the launcher
     * that started the rank, when this JVM has one: a rank process is started with its own arguments, not the
     * user's {@code dfr run ...}. The load average is the launcher's too, read before its ranks started.
     */
    public Provenance withLauncherCommandLine() {
        List<String> launcher = commandLineOfThisJvm;
        return launcher.isEmpty() ? this
                : new Provenance(dfrVersion, gitCommit, gitDirty, jvm, os, cpuModel, hostName, startedAt, launcher, cpus,
                        loadAtStart);
    }

    /** A property the build wrote, or "unknown" when it could not (no git checkout leaves the placeholder). */
    static String filtered(Properties build, String key) {
        String value = build.getProperty(key, "unknown").trim();
        return value.isEmpty() || value.startsWith("${") ? "unknown" : value;
    }

    private static Properties buildProperties() {
        Properties p = new Properties();
        try (InputStream in = Provenance.class.getResourceAsStream("/dfr-build.properties")) {
            if (in != null) {
                p.load(in);
            }
        } catch (IOException e) {
            // unknown version and commit, said so in the report
        }
        return p;
    }

    /** The load averages over 1, 5 and 15 minutes from {@code /proc/loadavg}; null where there is none. */
    static List<Double> readLoadAverage() {
        try {
            String[] words = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return List.of(Double.parseDouble(words[0]), Double.parseDouble(words[1]), Double.parseDouble(words[2]));
        } catch (IOException | RuntimeException e) {
            return null; // not Linux, or unreadable
        }
    }

    /** The CPU model from {@code /proc/cpuinfo}, or "unknown" where there is none. */
    static String readCpuModel() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                if (line.startsWith("model name")) {
                    return line.substring(line.indexOf(':') + 1).trim();
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux, or unreadable
        }
        return "unknown";
    }
}
