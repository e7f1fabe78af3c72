package org.dfr.power.energy;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.OptionalDouble;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.dfr.power.Ticker;
import org.dfr.power.meter.EnergySource;
import org.dfr.power.meter.LoadModelPowerMeter;
import org.dfr.power.meter.PowerMeter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads a {@link PowerMeter} every period on a daemon thread, stamps each reading with the monotonic
 * ticker and the phase in force, and feeds the {@link EnergyAccount}. {@link #stop()} takes a last
 * reading so the account covers the whole run.
 *
 * <pre>{@code
 * PhaseRecorder phases = new PhaseRecorder(Ticker.system());
 * try (PowerSampler sampler = new PowerSampler(meter, phases, Ticker.system(), host, 100)) {
 *     sampler.start();
 *     phases.mark(Phase.COMPUTE);
 *     ...
 *     sampler.stop();
 *     EnergyReport energy = sampler.report();
 * }
 * }</pre>
 */
public final class PowerSampler implements AutoCloseable {

    /** The default period; the paper sampled every 500 ms. */
    public static final long DEFAULT_PERIOD_MILLIS = 100;

    private static final Logger LOG = LoggerFactory.getLogger(PowerSampler.class);

    private final PowerMeter meter;
    private final PhaseRecorder phases;
    private final Ticker ticker;
    private final String host;
    private final long periodMillis;
    private final String sourceDetail;
    private final EnergyAccount account;
    private final List<PowerSample> samples = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();
    private ScheduledExecutorService executor;
    private long startNanos;
    /** The wall clock at the baseline reading: a sample's timestamp is it plus the monotonic time since. */
    private long startEpochMillis;
    private long lastNanos;
    private Double lastJoules;
    private Double baselineJoules;
    private boolean started;
    private boolean stopped;

    /**
     * @param meter        the chosen meter (closed by the caller)
     * @param phases       the host's phases
     * @param ticker       the monotonic clock of the timestamps (the same as the recorder's)
     * @param host         the host name for the account
     * @param periodMillis the sampling period, at least 1 ms
     */
    public PowerSampler(PowerMeter meter, PhaseRecorder phases, Ticker ticker, String host, long periodMillis) {
        if (periodMillis < 1) {
            throw new IllegalArgumentException("sampling period must be at least 1 ms, was " + periodMillis);
        }
        this.meter = Objects.requireNonNull(meter, "meter");
        this.phases = Objects.requireNonNull(phases, "phases");
        this.ticker = Objects.requireNonNull(ticker, "ticker");
        this.host = Objects.requireNonNull(host, "host");
        this.periodMillis = periodMillis;
        this.sourceDetail = meter instanceof LoadModelPowerMeter model ? model.model().label() : meter.source().label();
        this.account = new EnergyAccount(host, meter.source(), phases);
    }

    /** Takes the baseline reading and starts sampling every period. */
    public synchronized void start() {
        begin();
        executor = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "dfr-power-sampler");
            thread.setDaemon(true);
            return thread;
        });
        executor.scheduleAtFixedRate(this::sampleQuietly, periodMillis, periodMillis, TimeUnit.MILLISECONDS);
    }

    /** Takes the baseline reading without a background thread; the caller calls {@link #sampleNow()}. */
    public synchronized void begin() {
        if (started) {
            throw new IllegalStateException("sampler already started");
        }
        started = true;
        startNanos = ticker.read();
        startEpochMillis = System.currentTimeMillis();
        lastNanos = startNanos;
        lastJoules = read();
        baselineJoules = lastJoules;
    }

    private void sampleQuietly() {
        try {
            synchronized (this) {
                // a fixed-rate executor starved of CPU runs its missed readings in a burst: one reading stands for them
                if (ticker.read() - lastNanos < periodMillis * 500_000L) {
                    return;
                }
                sampleNow();
            }
        } catch (RuntimeException e) {
            // an exception would silently cancel the schedule
            LOG.warn("power sample failed: {}", e.toString());
        }
    }

    /** Takes one reading now. */
    public synchronized PowerSample sampleNow() {
        if (!started) {
            throw new IllegalStateException("sampler not started");
        }
        long now = ticker.read();
        Double joules = read();
        Double interval = joules != null && lastJoules != null ? joules - lastJoules : null;
        Double watts = interval != null && now > lastNanos ? interval / ((now - lastNanos) / 1e9) : null;
        account.add(lastNanos, now, interval == null ? OptionalDouble.empty() : OptionalDouble.of(interval));
        PowerSample sample = new PowerSample(startEpochMillis + (now - startNanos) / 1_000_000, (now - startNanos) / 1e9,
                host, meter.source(), sourceDetail,
                phases.current(), joules == null || baselineJoules == null ? null : joules - baselineJoules, interval, watts);
        samples.add(sample);
        lastNanos = now;
        if (joules != null) {
            lastJoules = joules;
        }
        return sample;
    }

    private Double read() {
        try {
            OptionalDouble joules = meter.readEnergyJoules();
            return joules.isPresent() ? joules.getAsDouble() : null;
        } catch (IOException e) {
            if (notes.size() < 5) {
                notes.add("reading failed at " + String.format(Locale.ROOT, "%.3f",
                        (ticker.read() - startNanos) / 1e9) + " s: " + e.getMessage());
            }
            LOG.warn("power meter {} failed: {}", meter.source(), e.getMessage());
            return null;
        }
    }

    /** Stops sampling after a last reading; idempotent. */
    public void stop() {
        ScheduledExecutorService running;
        synchronized (this) {
            if (!started || stopped) {
                return;
            }
            stopped = true;
            running = executor;
        }
        if (running != null) {
            running.shutdownNow();
            try {
                running.awaitTermination(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        sampleNow();
    }

    /** @return the readings so far, oldest first */
    public synchronized List<PowerSample> samples() {
        return List.copyOf(samples);
    }

    /** @return the host's account so far */
    public HostEnergy hostEnergy() {
        return account.summary();
    }

    /** @return this host's report */
    public synchronized EnergyReport report() {
        List<String> allNotes = new ArrayList<>(notes);
        if (meter.source() == EnergySource.MODEL) {
            allNotes.add("estimated by a model, not measured");
        }
        return EnergyReport.of(meter.description(), meter.parameters(), periodMillis, List.of(account.summary()),
                allNotes);
    }

    public long periodMillis() {
        return periodMillis;
    }

    /** Writes the samples as CSV, atomically. */
    public void writeCsv(Path file) throws IOException {
        SampleCsv.write(file, samples());
    }

    /** Writes {@link #report()} as JSON, atomically. */
    public void writeJson(Path file) throws IOException {
        report().writeJson(file);
    }

    /** Same as {@link #stop()}. */
    @Override
    public void close() {
        stop();
    }
}
