package org.dfr.harness;

import com.fasterxml.jackson.core.type.TypeReference;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongFunction;
import java.util.function.Supplier;
import org.dfr.power.HostName;
import org.dfr.power.energy.EnergyReport;
import org.dfr.power.energy.HostEnergy;
import org.dfr.power.energy.Phase;
import org.dfr.power.energy.PhaseEnergy;
import org.dfr.power.meter.EnergySource;
import org.dfr.power.meter.FrequencyRatioSource;
import org.dfr.power.meter.MeterSelection;
import org.dfr.power.meter.MeterVerdict;
import org.dfr.power.meter.PowerMeterSelector;
import org.dfr.power.meter.PowerModel;
import org.dfr.power.meter.RaplPowercapMeter;
import org.dfr.power.meter.RaplZone;
import org.dfr.power.meter.SysfsFrequencyRatio;
import org.dfr.power.sysfs.Sysfs;
import org.dfr.power.sysfs.SysfsRoot;
import org.dfr.power.timeline.FrequencyTrace;
import org.dfr.power.timeline.HostTimeline;
import org.dfr.power.timeline.PhaseSpan;
import org.dfr.power.timeline.TimelineEnergy;
import org.dfr.power.timeline.TimelineSample;
import org.dfr.recovery.IdleRankListener;
import org.dfr.recovery.power.IdleHostCapping;
import org.dfr.runtime.RunSpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Samples power around a run and puts every sample on the run's own timeline: each host's phase
 * (start-up, compute, checkpoint, detection, agreement, recovery-active, recovery-idle, capped, finish) is
 * derived after the run from what the run reports, not from hooks in the runtime:
 *
 * <ul>
 *   <li>start-up is the launch until {@code wallMillis} before the end, the iteration loop lasts
 *       {@code loopMillis}, finish is the rest;</li>
 *   <li>each recovery window starts at the first idle/busy event of the ranks (the plan is decided then),
 *       ends at the last rank's resume event; detection and agreement precede it by the report's
 *       {@code detectionMillis} and {@code agreementMillis}; inside it a rank is busy from its busy event,
 *       idle from its idle event (the {@link IdleRankListener} calls, which this class records on their way
 *       to capping), and a host whose ranks are all idle is {@code capped} when its cap was in place;</li>
 *   <li>without events (ranks that did not report them, which a local launcher's always do, capped or not) the
 *       windows are placed by the average iteration time and the report says so; checkpoints are always placed
 *       that way (an estimate).</li>
 * </ul>
 *
 * <p>Meters: with the load model each simulated host ({@code host0}, ...) gets its own power from its phase's
 * load and the {@code f / f_max} its own cpufreq tree shows (read every period and right after every cap and
 * lift); a measured meter (RAPL per domain, perf) reads the one machine, whose phase is the run's. Without a
 * meter the report says {@code "source": "none"} and why. The solver's energy excludes start-up, reported apart
 * as {@code startUp}.
 */
final class RunEnergy {

    private static final Logger LOG = LoggerFactory.getLogger(RunEnergy.class);

    /** Load of a host's CPUs per phase, as the model takes it. */
    static final String LOAD_RULE = "load = share of the host's ranks computing: compute and checkpoint 1;"
            + " recovery-active: ranks recomputing (or loading a checkpoint) / ranks of the host; start-up,"
            + " detection, agreement, recovery-idle, capped, finish 0 (ranks wait on the network)";

    private final RunConfig config;
    private final RunSpec spec;
    private final PowerModel model;
    private final MeterSelection selection;
    private final long periodMillis;
    private final TimelineEnergy.Clock clock;
    private final Map<Integer, FrequencyRatioSource> ratios = new TreeMap<>();
    private final Map<String, FrequencyTrace> traces = new LinkedHashMap<>();
    private final List<Long> ticks = Collections.synchronizedList(new ArrayList<>());
    private final List<double[]> readings = Collections.synchronizedList(new ArrayList<>());
    private final List<String> domains = new ArrayList<>();
    private final ConcurrentLinkedQueue<long[]> events = new ConcurrentLinkedQueue<>();
    private final Object frequencyLock = new Object();
    private final String reasonNone;
    private ScheduledExecutorService executor;
    private long bodyStart;
    private long bodyEnd;
    /** When the last rank entered its iteration loop, as a launcher saw it; {@link Long#MIN_VALUE} when not known. */
    private volatile long loopEnteredAt = Long.MIN_VALUE;

    private RunEnergy(RunConfig config, PowerModel model) {
        this.config = config;
        this.spec = config.runSpec();
        this.periodMillis = Runner.samplePeriod(config);
        Path root = Runner.sysfsRoot(config);
        PowerMeterSelector selector = new PowerMeterSelector(Sysfs.at(SysfsRoot.of(root)));
        if (model != null) {
            selector.model(model);
        }
        this.selection = selector.select();
        EnergySource source = selection.source();
        this.model = source == EnergySource.MODEL ? model : null;
        if (source == EnergySource.NONE) {
            StringBuilder why = new StringBuilder("no power meter on this machine:");
            for (MeterVerdict v : selection.verdicts()) {
                why.append(' ').append(v.source()).append(": ").append(v.reason()).append(';');
            }
            reasonNone = why.toString();
        } else {
            reasonNone = null;
        }
        if (this.model != null) {
            for (int h = 0; h < spec.hostCount(); h++) {
                Path hostRoot = IdleHostCapping.perHostRoot(root, h);
                ratios.put(h, SysfsFrequencyRatio.probe(Sysfs.at(SysfsRoot.of(hostRoot))));
                traces.put("host" + h, new FrequencyTrace());
            }
        } else if (selection.meter() instanceof RaplPowercapMeter rapl) {
            rapl.zones().stream().map(RaplZone::name).forEach(domains::add);
        } else {
            domains.add(source == EnergySource.PERF ? "package" : "none");
        }
        this.clock = TimelineEnergy.Clock.now();
    }

    /** Chooses the meter for {@code config}; {@code model} is used only when no counter exists (null: none). */
    static RunEnergy open(RunConfig config, PowerModel model) {
        return new RunEnergy(config, model);
    }

    /** @return a listener that records each idle/busy call after passing it to {@code delegate} */
    IdleRankListener listener(IdleRankListener delegate) {
        return new IdleRankListener() {
            @Override
            public void rankIdle(int rank) {
                if (ratios.isEmpty()) {
                    delegate.rankIdle(rank);
                    event(rank, 0);
                    return;
                }
                // a cap and the reading of the frequency it sets are one step for the sampler
                synchronized (frequencyLock) {
                    delegate.rankIdle(rank);
                    event(rank, 0);
                }
            }

            @Override
            public void rankGone(int rank) {
                // may cap the dead rank's host, which the sampler reads with the frequency it sets, as for rankIdle
                synchronized (frequencyLock) {
                    delegate.rankGone(rank);
                }
            }

            @Override
            public void rankBusy(int rank) {
                if (ratios.isEmpty()) {
                    delegate.rankBusy(rank);
                    event(rank, 1);
                    return;
                }
                synchronized (frequencyLock) {
                    delegate.rankBusy(rank);
                    event(rank, 1);
                }
            }
        };
    }

    private void event(int rank, int kind) {
        long now = System.nanoTime();
        events.add(new long[] {now, rank, kind});
        FrequencyRatioSource ratio = ratios.get(spec.hostOf(rank));
        if (ratio != null) {
            traces.get("host" + spec.hostOf(rank)).add(now, ratio.ratio());
        }
    }

    /**
     * When the first rank began its first iteration, checkpoint 0 taken ({@link System#nanoTime} of this JVM; in
     * processes mode when the launcher read that rank's line): the loop starts there. Without it the loop is anchored
     * on the first recovery's events, or placed {@code wallMillis} before the end.
     */
    void loopEntered(long nanos) {
        loopEnteredAt = nanos;
    }

    /** Runs {@code body} while sampling every period. */
    <T> T run(Supplier<T> body) {
        bodyStart = tick();
        executor = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "dfr-run-energy");
            t.setDaemon(true);
            return t;
        });
        executor.scheduleAtFixedRate(this::tickQuietly, periodMillis, periodMillis, TimeUnit.MILLISECONDS);
        try {
            return body.get();
        } finally {
            executor.shutdownNow();
            try {
                executor.awaitTermination(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            bodyEnd = tick();
            try {
                selection.meter().close();
            } catch (Exception ignored) {
                // closing a meter only releases its files
            }
        }
    }

    private void tickQuietly() {
        try {
            scheduledTick();
        } catch (RuntimeException e) {
            LOG.warn("power sample failed: {}", e.toString());
        }
    }

    /**
     * A tick of the schedule, unless the last one was less than half a period ago: a fixed-rate executor that
     * was starved of CPU (8 ranks on 2 cores) runs its missed ticks in a burst, and rows microseconds apart
     * filled samples.csv with one timestamp and powers of tiny intervals.
     */
    private synchronized void scheduledTick() {
        if (!ticks.isEmpty() && System.nanoTime() - ticks.get(ticks.size() - 1) < periodMillis * 500_000L) {
            return;
        }
        tick();
    }

    private synchronized long tick() {
        long now = System.nanoTime();
        if (model != null) {
            synchronized (frequencyLock) {
                long at = System.nanoTime();
                for (Map.Entry<Integer, FrequencyRatioSource> e : ratios.entrySet()) {
                    traces.get("host" + e.getKey()).add(at, e.getValue().ratio());
                }
            }
            ticks.add(now);
            return now;
        }
        double[] reading = null;
        try {
            if (selection.meter() instanceof RaplPowercapMeter rapl) {
                reading = rapl.readZoneJoules();
            } else if (selection.source() != EnergySource.NONE) {
                var joules = selection.meter().readEnergyJoules();
                reading = joules.isPresent() ? new double[] {joules.getAsDouble()} : null;
            }
        } catch (IOException e) {
            LOG.warn("power meter {} failed: {}", selection.source(), e.getMessage());
        }
        ticks.add(now);
        readings.add(reading);
        return now;
    }

    /** The energy section and the time series of a finished run. */
    record Result(Map<String, Object> energy, List<TimelineSample> samples) {
    }

    /**
     * Derives the phases from {@code report} and the recorded events and accounts the energy.
     *
     * @param cappingSummary {@code energy.frequencyCapping} of the run (null without capping)
     */
    Result finish(RunReport report, Map<String, Object> cappingSummary) {
        Timeline timeline = new Timeline(report, cappingSummary);
        TimelineEnergy energy;
        String detail;
        Map<String, Object> parameters = new LinkedHashMap<>();
        List<String> notes = new ArrayList<>(timeline.notes);
        if (model != null) {
            List<HostTimeline> hosts = new ArrayList<>();
            for (int h = 0; h < spec.hostCount(); h++) {
                hosts.add(timeline.host(h));
            }
            energy = TimelineEnergy.model(model, hosts, traces, List.copyOf(ticks), bodyStart, clock);
            detail = "model (an estimate, not a measurement) per simulated host: " + PowerModel.FORMULA
                    + " with P_idle=" + model.idlePowerWatts() + " W, P_busy=" + model.busyPowerWatts() + " W, alpha="
                    + model.alpha() + ", s=" + model.idleClockShare() + "; " + LOAD_RULE
                    + "; f/f_max from each host's cpufreq tree";
            parameters.put("formula", PowerModel.FORMULA);
            parameters.put("idlePowerWatts", model.idlePowerWatts());
            parameters.put("busyPowerWatts", model.busyPowerWatts());
            parameters.put("alpha", model.alpha());
            parameters.put("idleClockShare", model.idleClockShare());
            parameters.put("label", model.label());
            parameters.put("load", LOAD_RULE);
            Map<String, String> freq = new LinkedHashMap<>();
            ratios.forEach((h, r) -> freq.put("host" + h, r.description()));
            parameters.put("frequencyRatio", freq);
            notes.add("estimated by a model, not measured");
        } else {
            energy = TimelineEnergy.measured(selection.source(), timeline.machine(), domains, List.copyOf(ticks),
                    Collections.unmodifiableList(new ArrayList<>(readings)), HostName.local(), bodyStart, clock);
            detail = reasonNone != null ? reasonNone : selection.meter().description();
            parameters.putAll(selection.meter().parameters());
            if (reasonNone == null) {
                notes.add("one machine runs every rank: its power is not split among the simulated hosts; its"
                        + " phase is the run's (recovery-active during a whole recovery)");
            }
        }
        List<HostEnergy> solver = energy.hostEnergies(p -> p != Phase.START_UP);
        // without a meter too: the seconds per phase are known, only the joules are not
        EnergyReport energyReport = EnergyReport.of(detail, parameters, periodMillis, solver, notes);
        Map<String, Object> map = toMap(energyReport);
        Map<String, Object> startUp = new LinkedHashMap<>();
        double seconds = 0;
        Double joules = reasonNone != null ? null : 0.0;
        Map<String, Object> perHost = new LinkedHashMap<>();
        for (String host : energy.hosts()) {
            PhaseEnergy e = energy.phase(host, Phase.START_UP);
            perHost.put(host, e);
            seconds += e.seconds();
            if (joules != null && e.joules() != null) {
                joules += e.joules();
            }
        }
        startUp.put("seconds", seconds);
        startUp.put("joules", joules);
        startUp.put("hosts", perHost);
        map.put("startUp", toMap(startUp));
        map.put("timeline", timeline.describe());
        return new Result(map, energy.samples());
    }

    /** The phases of the run, rebuilt from its report and the recorded events. */
    private final class Timeline {

        final List<String> notes = new ArrayList<>();
        final long loopStart;
        final long loopEnd;
        final double iterNanos;
        final List<long[]> windows = new ArrayList<>(); // detectionStart, agreementStart, decided, resumed
        final List<Boolean> fromEvents = new ArrayList<>();
        final List<long[]> checkpoints = new ArrayList<>();
        final Map<Integer, List<long[]>> byRank = new TreeMap<>();
        final RunReport report;
        final boolean capping;
        final Map<Integer, Boolean> canCap = new TreeMap<>();

        Timeline(RunReport report, Map<String, Object> cappingSummary) {
            this.report = report;
            this.capping = cappingSummary != null;
            if (cappingSummary != null) {
                for (Map.Entry<String, Object> e : cappingSummary.entrySet()) {
                    if (e.getValue() instanceof Map<?, ?> m && e.getKey().startsWith("host")) {
                        canCap.put(Integer.parseInt(e.getKey().substring(4)), Boolean.TRUE.equals(m.get("canCap")));
                    }
                }
            }
            for (long[] e : events) {
                byRank.computeIfAbsent((int) e[1], r -> new ArrayList<>()).add(e);
            }
            byRank.values().forEach(l -> l.sort((a, b) -> Long.compare(a[0], b[0])));
            List<RunReport.Recovery> recoveries = report.recoveries() == null ? List.of() : report.recoveries();
            long ckpt = (long) (report.checkpointMillisEach() * 1e6);
            int inLoopCheckpoints = Math.max(0, report.checkpointsTaken() - 1);
            int iterations = Math.max(1, report.iterationsRun());
            long recoveriesNanos = 0;
            for (int k = 0; k < recoveries.size(); k++) {
                RunReport.Recovery rec = recoveries.get(k);
                long det = millis(rec.detectionMillis());
                long agr = millis(rec.agreementMillis());
                long decided = Long.MAX_VALUE;
                long resumed = Long.MIN_VALUE;
                for (List<long[]> list : byRank.values()) {
                    if (list.size() >= 2 * (k + 1)) {
                        decided = Math.min(decided, list.get(2 * k)[0]);
                        resumed = Math.max(resumed, list.get(2 * k + 1)[0]);
                    }
                }
                boolean events = decided != Long.MAX_VALUE;
                if (!events) {
                    decided = -1;
                    resumed = -1;
                }
                windows.add(new long[] {decided - det - agr, decided - agr, decided, resumed});
                fromEvents.add(events);
                recoveriesNanos += events ? resumed - (decided - det - agr) : millis(rec.wallMillis());
            }
            long loopNanos = report.loopMillis() * 1_000_000L;
            iterNanos = Math.max(0, loopNanos - recoveriesNanos - inLoopCheckpoints * ckpt) / (double) iterations;
            // the loop starts after checkpoint 0; anchored on the first recovery's events when there are some
            long start;
            long entered = loopEnteredAt;
            if (entered != Long.MIN_VALUE && entered > bodyStart && entered < bodyEnd) {
                // measured: an anchor from the events moves with the iteration times before the failure, and once
                // put the loop's end past the end of the run (one run in six lost its finish phase); and measured
                // where the iterations begin, not where the ranks started: checkpoint 0's barrier and replication
                // came between, and put 3 iterations 200 ms wide and the 16 after the recovery past the loop's end
                start = entered;
                if (!fromEvents.isEmpty() && fromEvents.get(0) && windows.get(0)[0] < start) {
                    // a death during checkpoint 0, recovered before any rank iterated: its window is not squeezed
                    start = windows.get(0)[0];
                }
            } else if (!fromEvents.isEmpty() && fromEvents.get(0)) {
                int t = recoveries.get(0).failureIteration();
                start = windows.get(0)[0] - (long) ((t - 1) * iterNanos) - checkpointsIn(1, t - 1) * ckpt;
            } else {
                start = bodyEnd - report.wallMillis() * 1_000_000L + ckpt;
                notes.add("the iteration loop is placed wallMillis before the end of the run (the cluster's shutdown"
                        + " is counted as loop time: an estimate)");
            }
            loopStart = clamp(start, Math.min(bodyEnd, bodyStart + ckpt), bodyEnd);
            long lastResume = loopStart;
            for (int k = 0; k < windows.size(); k++) {
                if (fromEvents.get(k)) {
                    lastResume = Math.max(lastResume, windows.get(k)[3]);
                }
            }
            loopEnd = clamp(Math.max(loopStart + loopNanos, lastResume), loopStart, bodyEnd);
            // windows without events: placed by the average iteration time
            long shift = 0;
            for (int k = 0; k < windows.size(); k++) {
                RunReport.Recovery rec = recoveries.get(k);
                long[] w = windows.get(k);
                if (!fromEvents.get(k)) {
                    long det = millis(rec.detectionMillis());
                    long agr = millis(rec.agreementMillis());
                    int t = rec.failureIteration();
                    long at = loopStart + shift + checkpointsIn(1, t - 1) * ckpt + (long) (iterNanos * (t - 1));
                    w[0] = at;
                    w[1] = at + det;
                    w[2] = at + det + agr;
                    w[3] = Math.max(w[2], at + millis(rec.wallMillis()));
                    notes.add("recovery " + (k + 1) + ": no idle/busy events were recorded (no rank reported them to"
                            + " this launcher), its window is placed by the average iteration time (an estimate)");
                }
                for (int i = 0; i < 4; i++) {
                    w[i] = clamp(w[i], loopStart, loopEnd);
                }
                shift += w[3] - w[0];
            }
            if (report.checkpointsTaken() > 0 && ckpt > 0) {
                checkpoints.add(new long[] {loopStart - ckpt, loopStart});
            }
            int every = Math.max(1, report.checkpointEvery());
            for (int n = 1, c = every; n <= inLoopCheckpoints; n++, c += every) {
                long at = loopStart + (long) (c * iterNanos) + (n - 1) * ckpt;
                for (int k = 0; k < windows.size(); k++) {
                    int t = recoveries.get(k).failureIteration();
                    if (t <= c) {
                        at = Math.max(at, windows.get(k)[3] + (long) ((c - t + 1) * iterNanos));
                    }
                }
                long end = at + ckpt;
                if (at >= loopStart && end <= loopEnd) {
                    checkpoints.add(new long[] {at, end});
                }
            }
            if (!checkpoints.isEmpty()) {
                notes.add("checkpoint 0 is the checkpointMillisEach before the loop; later checkpoints are placed by"
                        + " the average iteration time (an estimate)");
            }
        }

        /** @return the checkpoints taken inside the loop at iterations {@code from..to} */
        private long checkpointsIn(int from, int to) {
            int every = report.checkpointEvery();
            if (every <= 0 || to < from) {
                return 0;
            }
            return Math.min(Math.max(0, report.checkpointsTaken() - 1), to / every - (from - 1) / every);
        }

        private long millis(Long value) {
            return value == null ? 0 : value * 1_000_000L;
        }

        private long clamp(long v, long lo, long hi) {
            return Math.max(lo, Math.min(hi, v));
        }

        /** @return the timeline of simulated host {@code h} */
        HostTimeline host(int h) {
            return build("host" + h, t -> at(h, t));
        }

        /** @return the machine's timeline: the run's phase, any recovery counting as active */
        HostTimeline machine() {
            return build("machine", t -> at(-1, t));
        }

        private HostTimeline build(String name, LongFunction<PhaseSpan> at) {
            TreeSet<Long> cuts = new TreeSet<>(List.of(bodyStart, loopStart, loopEnd, bodyEnd));
            for (long[] w : windows) {
                for (long t : w) {
                    cuts.add(t);
                }
            }
            for (long[] c : checkpoints) {
                cuts.add(c[0]);
                cuts.add(c[1]);
            }
            for (long[] e : events) {
                cuts.add(e[0]);
            }
            List<PhaseSpan> spans = new ArrayList<>();
            Long prev = null;
            for (long t : cuts.subSet(bodyStart, true, bodyEnd, true)) {
                if (prev != null && t > prev) {
                    PhaseSpan s = at.apply(prev + (t - prev) / 2);
                    PhaseSpan span = new PhaseSpan(prev, t, s.phase(), s.load());
                    PhaseSpan last = spans.isEmpty() ? null : spans.get(spans.size() - 1);
                    if (last != null && last.phase() == span.phase() && last.load() == span.load()
                            && last.toNanos() == span.fromNanos()) {
                        spans.set(spans.size() - 1, new PhaseSpan(last.fromNanos(), t, span.phase(), span.load()));
                    } else {
                        spans.add(span);
                    }
                }
                prev = t;
            }
            return new HostTimeline(name, spans);
        }

        private PhaseSpan at(int host, long t) {
            for (long[] c : checkpoints) {
                if (t >= c[0] && t < c[1]) {
                    return new PhaseSpan(t, t, Phase.CHECKPOINT, 1);
                }
            }
            if (t < loopStart) {
                return new PhaseSpan(t, t, Phase.START_UP, 0);
            }
            if (t >= loopEnd) {
                return new PhaseSpan(t, t, Phase.FINISH, 0);
            }
            for (int k = 0; k < windows.size(); k++) {
                long[] w = windows.get(k);
                if (t >= w[0] && t < w[1]) {
                    return new PhaseSpan(t, t, Phase.DETECTION, 0);
                }
                if (t >= w[1] && t < w[2]) {
                    return new PhaseSpan(t, t, Phase.AGREEMENT, 0);
                }
                if (t >= w[2] && t < w[3]) {
                    return host < 0 ? new PhaseSpan(t, t, Phase.RECOVERY_ACTIVE, 1) : recovering(host, k, t);
                }
            }
            return new PhaseSpan(t, t, Phase.COMPUTE, 1);
        }

        private PhaseSpan recovering(int host, int k, long t) {
            RunReport.Recovery rec = report.recoveries().get(k);
            int ranks = 0;
            int alive = 0;
            int busy = 0;
            for (int r = 0; r < spec.memberCount(); r++) {
                if (spec.hostOf(r) != host) {
                    continue;
                }
                ranks++;
                if (fromEvents.get(k)) {
                    List<long[]> list = byRank.getOrDefault(r, List.of());
                    if (list.size() < 2 * (k + 1)) {
                        continue;
                    }
                    alive++;
                    long[] first = list.get(2 * k);
                    long[] resumed = list.get(2 * k + 1);
                    // before its first event the rank decides and loads checkpoints; after its resume it computes
                    if (t < first[0] || first[2] == 1 || t >= resumed[0]) {
                        busy++;
                    }
                } else {
                    if (rec.deadRanks() != null && rec.deadRanks().contains(r)) {
                        continue;
                    }
                    alive++;
                    if (rec.participatingRanks() != null && rec.participatingRanks().contains(r)) {
                        busy++;
                    }
                }
            }
            if (busy > 0) {
                return new PhaseSpan(t, t, Phase.RECOVERY_ACTIVE, Math.min(1.0, (double) busy / Math.max(1, ranks)));
            }
            boolean capped = capping && alive > 0 && canCap.getOrDefault(host, false) && fromEvents.get(k);
            return new PhaseSpan(t, t, capped ? Phase.CAPPED : Phase.RECOVERY_IDLE, 0);
        }

        Map<String, Object> describe() {
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("launchedAt", Instant.ofEpochMilli(clock.epochMillis(bodyStart)).toString());
            out.put("loopStartSeconds", seconds(loopStart));
            out.put("loopEndSeconds", seconds(loopEnd));
            out.put("iterationSecondsEstimate", Math.round(iterNanos / 1e6) / 1e3);
            out.put("endSeconds", seconds(bodyEnd));
            List<Map<String, Object>> recs = new ArrayList<>();
            for (int k = 0; k < windows.size(); k++) {
                long[] w = windows.get(k);
                Map<String, Object> r = new LinkedHashMap<>();
                r.put("detectionStartSeconds", seconds(w[0]));
                r.put("agreementStartSeconds", seconds(w[1]));
                r.put("recoveryStartSeconds", seconds(w[2]));
                r.put("resumeSeconds", seconds(w[3]));
                r.put("derivedFrom", fromEvents.get(k) ? "idle/busy events" : "average iteration time (estimate)");
                recs.add(r);
            }
            out.put("recoveries", recs);
            List<List<Double>> ck = new ArrayList<>();
            for (long[] c : checkpoints) {
                ck.add(List.of(seconds(c[0]), seconds(c[1])));
            }
            out.put("checkpointsSeconds", ck);
            return out;
        }

        private double seconds(long nanos) {
            return Math.round((nanos - bodyStart) / 1e6) / 1e3;
        }
    }

    static Map<String, Object> toMap(Object value) {
        try {
            String json = value instanceof EnergyReport r ? r.toJson() : RunReports.JSON.writeValueAsString(value);
            return RunReports.JSON.readValue(json, new TypeReference<LinkedHashMap<String, Object>>() {
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
