package org.dfr.power.meter;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Energy from perf's {@code power/energy-pkg/} event, for machines where perf exposes the package
 * counter but powercap does not. A background {@code perf stat -a -x, -I <interval> -e power/energy-pkg/}
 * prints the joules of every interval; the meter adds them up. Readings therefore lag by up to one
 * interval, and they cover the packages only (no DRAM).
 */
public final class PerfEnergyMeter implements PowerMeter {

    /** The event's description under the sysfs root; its presence means the kernel has the perf power PMU. */
    public static final String EVENT = "sys/bus/event_source/devices/power/events/energy-pkg";
    /** The event as perf names it. */
    public static final String EVENT_NAME = "power/energy-pkg/";

    private static final Logger LOG = LoggerFactory.getLogger(PerfEnergyMeter.class);

    private final Path perf;
    private final long intervalMillis;
    private final Process process;
    private final Thread reader;
    private double totalJoules;
    private String failure;

    private PerfEnergyMeter(Path perf, long intervalMillis) throws IOException {
        this.perf = perf;
        this.intervalMillis = intervalMillis;
        this.process = new ProcessBuilder(perf.toString(), "stat", "-a", "-x", ",", "-I",
                Long.toString(intervalMillis), "-e", EVENT_NAME)
                .redirectErrorStream(true)
                .redirectInput(ProcessBuilder.Redirect.PIPE)
                .start();
        this.reader = new Thread(this::readIntervals, "dfr-perf-energy");
        reader.setDaemon(true);
        reader.start();
    }

    /**
     * Starts the background perf process.
     *
     * @param perf           the perf executable
     * @param intervalMillis perf's reporting interval (perf requires at least 10 ms)
     */
    public static PerfEnergyMeter start(Path perf, long intervalMillis) throws IOException {
        if (intervalMillis < 10) {
            throw new IllegalArgumentException("perf interval must be at least 10 ms, was " + intervalMillis);
        }
        return new PerfEnergyMeter(perf, intervalMillis);
    }

    /** @return {@code name} found as an executable file on {@code PATH} */
    public static Optional<Path> findOnPath(String name) {
        String path = System.getenv("PATH");
        if (path == null) {
            return Optional.empty();
        }
        for (String dir : path.split(File.pathSeparator)) {
            Path candidate = Path.of(dir.isEmpty() ? "." : dir, name);
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    /**
     * Runs perf once, system-wide for a few milliseconds, to see whether it can count the event.
     *
     * @return empty when it can, else why not
     */
    public static Optional<String> trial(Path perf) {
        List<String> output = new ArrayList<>();
        try {
            Process trial = new ProcessBuilder(perf.toString(), "stat", "-a", "-x", ",", "-e", EVENT_NAME,
                    "--", "sleep", "0.05").redirectErrorStream(true).start();
            trial.getOutputStream().close();
            try (BufferedReader lines = new BufferedReader(
                    new InputStreamReader(trial.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                    output.add(line);
                }
            }
            if (!trial.waitFor(10, TimeUnit.SECONDS)) {
                trial.destroyForcibly();
                return Optional.of(perf + " stat did not finish within 10 s");
            }
        } catch (IOException e) {
            return Optional.of("cannot run " + perf + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.of("interrupted while trying " + perf);
        }
        for (String line : output) {
            if (parseJoules(line, false).isPresent()) {
                return Optional.empty();
            }
        }
        String said = String.join(" | ", output).strip();
        return Optional.of(perf + " stat cannot count " + EVENT_NAME + (said.isEmpty() ? "" : ": " + said));
    }

    /**
     * Parses one line of {@code perf stat -x,} output.
     *
     * @param interval whether the line starts with an interval timestamp ({@code -I})
     * @return the joules on the line, or empty for other lines and {@code <not counted>} values
     */
    static OptionalDouble parseJoules(String line, boolean interval) {
        String[] fields = line.strip().split(",", -1);
        int value = interval ? 1 : 0;
        if (fields.length < value + 3 || !fields[value + 1].equals("Joules")
                || !fields[value + 2].startsWith(EVENT_NAME.substring(0, EVENT_NAME.length() - 1))) {
            return OptionalDouble.empty();
        }
        try {
            return OptionalDouble.of(Double.parseDouble(fields[value]));
        } catch (NumberFormatException notCounted) {
            return OptionalDouble.empty();
        }
    }

    private void readIntervals() {
        try (BufferedReader lines = new BufferedReader(
                new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                OptionalDouble joules = parseJoules(line, true);
                synchronized (this) {
                    if (joules.isPresent()) {
                        totalJoules += joules.getAsDouble();
                    } else if (!line.isBlank() && !line.startsWith("#")) {
                        failure = line.strip();
                    }
                }
            }
        } catch (IOException e) {
            synchronized (this) {
                failure = e.getMessage();
            }
        }
    }

    @Override
    public EnergySource source() {
        return EnergySource.PERF;
    }

    @Override
    public String description() {
        return "perf: " + perf + " stat -a -e " + EVENT_NAME + " every " + intervalMillis
                + " ms (packages only, lags by up to one interval)";
    }

    @Override
    public Map<String, Object> parameters() {
        Map<String, Object> parameters = new LinkedHashMap<>();
        parameters.put("event", EVENT_NAME);
        parameters.put("intervalMillis", intervalMillis);
        return parameters;
    }

    @Override
    public synchronized OptionalDouble readEnergyJoules() throws IOException {
        if (!process.isAlive() && totalJoules == 0) {
            throw new IOException("perf exited with " + process.exitValue()
                    + (failure == null ? "" : ": " + failure));
        }
        return OptionalDouble.of(totalJoules);
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(2, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
            reader.join(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
        LOG.debug("perf energy meter closed");
    }
}
