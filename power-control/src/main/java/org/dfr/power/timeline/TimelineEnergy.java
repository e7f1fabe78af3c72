package org.dfr.power.timeline;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Predicate;
import org.dfr.power.energy.HostEnergy;
import org.dfr.power.energy.Phase;
import org.dfr.power.energy.PhaseEnergy;
import org.dfr.power.meter.EnergySource;
import org.dfr.power.meter.PowerModel;

/**
 * Power samples and energy per host and per phase on a run's own timeline.
 *
 * <ul>
 *   <li>{@link #model}: every simulated host has its own {@link PowerModel} power, with the load of its phase
 *       span and the {@code f / f_max} its own cpufreq tree read at that time, integrated exactly over the
 *       pieces where both are constant.</li>
 *   <li>{@link #measured}: one machine, one cumulative counter per domain (RAPL package, DRAM, ... kept
 *       apart; perf's package counter), each interval's energy split among the phases in force during it in
 *       proportion to their time.</li>
 * </ul>
 */
public final class TimelineEnergy {

    /** Maps the monotonic clock to wall-clock milliseconds. */
    public record Clock(long baseNanos, long baseEpochMillis) {
        public long epochMillis(long nanos) {
            return baseEpochMillis + Math.floorDiv(nanos - baseNanos, 1_000_000L);
        }

        public static Clock now() {
            return new Clock(System.nanoTime(), System.currentTimeMillis());
        }
    }

    private final EnergySource source;
    private final List<TimelineSample> samples;
    private final Map<String, Map<Phase, double[]>> perHost;
    private final int intervals;
    /** Per host: the readings that failed (their energy is in the next reading that succeeded). */
    private final Map<String, Integer> missed;

    private TimelineEnergy(EnergySource source, List<TimelineSample> samples, Map<String, Map<Phase, double[]>> perHost,
                           int intervals, Map<String, Integer> missed) {
        this.source = source;
        this.samples = List.copyOf(samples);
        this.perHost = perHost;
        this.intervals = intervals;
        this.missed = Map.copyOf(missed);
    }

    /**
     * @param ticks      the sampling instants, ascending; the first is the start of the first interval
     * @param launchNanos the instant {@code seconds} counts from
     */
    public static TimelineEnergy model(PowerModel model, List<HostTimeline> hosts, Map<String, FrequencyTrace> frequency,
                                       List<Long> ticks, long launchNanos, Clock clock) {
        List<TimelineSample> samples = new ArrayList<>();
        Map<String, Map<Phase, double[]>> perHost = new LinkedHashMap<>();
        String detail = model.label();
        for (HostTimeline host : hosts) {
            FrequencyTrace trace = frequency.getOrDefault(host.host(), new FrequencyTrace());
            Map<Phase, double[]> account = perHost.computeIfAbsent(host.host(), h -> new EnumMap<>(Phase.class));
            TreeSet<Long> cuts = new TreeSet<>(ticks);
            cuts.addAll(host.boundaries());
            cuts.addAll(trace.times());
            for (int k = 1; k < ticks.size(); k++) {
                long from = ticks.get(k - 1);
                long to = ticks.get(k);
                if (to <= from) {
                    continue;
                }
                Map<Phase, Long> time = new EnumMap<>(Phase.class);
                double joules = 0;
                long a = from;
                for (long b : cuts.subSet(from, false, to, true)) {
                    long mid = a + (b - a) / 2;
                    PhaseSpan span = host.at(mid);
                    double watts = model.watts(span.load(), trace.ratioAt(mid));
                    double j = watts * (b - a) / 1e9;
                    joules += j;
                    time.merge(span.phase(), b - a, Long::sum);
                    double[] acc = account.computeIfAbsent(span.phase(), p -> new double[2]);
                    acc[0] += (b - a) / 1e9;
                    acc[1] += j;
                    a = b;
                }
                samples.add(new TimelineSample(clock.epochMillis(to), (to - launchNanos) / 1e9, host.host(),
                        dominant(time), joules / ((to - from) / 1e9), EnergySource.MODEL.label(), detail));
            }
        }
        samples.sort(Comparator.comparingLong(TimelineSample::epochMillis)
                .thenComparing(TimelineSample::host));
        return new TimelineEnergy(EnergySource.MODEL, samples, perHost, Math.max(0, ticks.size() - 1), Map.of());
    }

    /**
     * @param phases      the machine's phases
     * @param domains     the counters read, e.g. {@code package-0}, {@code package-0/dram}, or {@code package}
     * @param ticks       the reading instants, ascending (the first is the baseline)
     * @param readings    per tick, cumulative joules per domain; null where the reading failed or nothing is measured
     * @param machineHost the machine's name
     */
    public static TimelineEnergy measured(EnergySource source, HostTimeline phases, List<String> domains,
                                          List<Long> ticks, List<double[]> readings, String machineHost,
                                          long launchNanos, Clock clock) {
        List<TimelineSample> samples = new ArrayList<>();
        Map<String, Map<Phase, double[]>> perHost = new LinkedHashMap<>();
        Map<String, Integer> missed = new LinkedHashMap<>();
        for (int d = 0; d < domains.size(); d++) {
            String host = domains.size() == 1 ? machineHost : machineHost + ":" + domains.get(d);
            Map<Phase, double[]> account = perHost.computeIfAbsent(host, h -> new EnumMap<>(Phase.class));
            TreeSet<Long> cuts = new TreeSet<>(ticks);
            cuts.addAll(phases.boundaries());
            double[] last = readings.isEmpty() ? null : readings.get(0);
            // the instant of the last reading that succeeded: a failed reading's energy is in the next good one,
            // which is spread over the time since this instant, failed intervals included
            long good = ticks.isEmpty() ? 0 : ticks.get(0);
            // a failed baseline is a failed reading too: the time until the first good one stays unmeasured
            int failed = last == null && !readings.isEmpty() && source != EnergySource.NONE ? 1 : 0;
            for (int k = 1; k < ticks.size(); k++) {
                long from = ticks.get(k - 1);
                long to = ticks.get(k);
                double[] now = readings.get(k);
                if (to <= from) {
                    continue;
                }
                Map<Phase, Long> time = new EnumMap<>(Phase.class);
                long a = from;
                for (long b : cuts.subSet(from, false, to, true)) {
                    time.merge(phases.at(a + (b - a) / 2).phase(), b - a, Long::sum);
                    a = b;
                }
                Double watts = null;
                if (now == null) {
                    if (source != EnergySource.NONE) {
                        failed++; // nothing is read without a meter: that is no failure
                    }
                } else if (last == null) {
                    // no reading before this one: the energy since the baseline is unknown
                    credit(account, phases, cuts, good, to, null);
                    good = to;
                    last = now;
                } else {
                    double joules = now[d] - last[d];
                    credit(account, phases, cuts, good, to, joules);
                    watts = joules / ((to - good) / 1e9);
                    good = to;
                    last = now;
                }
                samples.add(new TimelineSample(clock.epochMillis(to), (to - launchNanos) / 1e9, host, dominant(time),
                        watts, source.label(), domains.get(d)));
            }
            if (!ticks.isEmpty() && ticks.get(ticks.size() - 1) > good) {
                // the last readings failed: their time counts, their energy is unknown
                credit(account, phases, cuts, good, ticks.get(ticks.size() - 1), null);
            }
            missed.put(host, failed);
        }
        samples.sort(Comparator.comparingLong(TimelineSample::epochMillis)
                .thenComparing(TimelineSample::host));
        return new TimelineEnergy(source, samples, perHost, Math.max(0, ticks.size() - 1), missed);
    }

    /**
     * Splits {@code joules} (null: not measured) over {@code (from, to]} among the phases in force, in proportion to
     * their time. Per phase: {@code [seconds, joules, seconds not measured]}.
     */
    private static void credit(Map<Phase, double[]> account, HostTimeline phases, TreeSet<Long> cuts, long from,
                               long to, Double joules) {
        long a = from;
        for (long b : cuts.subSet(from, false, to, true)) {
            double[] acc = account.computeIfAbsent(phases.at(a + (b - a) / 2).phase(), p -> new double[3]);
            acc[0] += (b - a) / 1e9;
            if (joules != null) {
                acc[1] += joules * (b - a) / (to - from);
            } else {
                acc[2] += (b - a) / 1e9;
            }
            a = b;
        }
    }

    private static Phase dominant(Map<Phase, Long> time) {
        return time.entrySet().stream().max(Map.Entry.comparingByValue()).map(Map.Entry::getKey)
                .orElse(Phase.UNMARKED);
    }

    public EnergySource source() {
        return source;
    }

    /** @return every sample, by time then host */
    public List<TimelineSample> samples() {
        return samples;
    }

    /** @return the hosts (or machine domains) accounted */
    public List<String> hosts() {
        return List.copyOf(perHost.keySet());
    }

    /** @return seconds and joules ({@code null} for none) of {@code phase} on {@code host} */
    public PhaseEnergy phase(String host, Phase phase) {
        double[] acc = perHost.getOrDefault(host, Map.of()).get(phase);
        if (acc == null) {
            return new PhaseEnergy(0, source == EnergySource.NONE ? null : 0.0, null);
        }
        return energy(acc);
    }

    private PhaseEnergy energy(double[] acc) {
        if (source == EnergySource.NONE) {
            return new PhaseEnergy(acc[0], null, null);
        }
        double measuredSeconds = acc[0] - (acc.length > 2 ? acc[2] : 0);
        return new PhaseEnergy(acc[0], acc[1], measuredSeconds > 0 ? acc[1] / measuredSeconds : null);
    }

    /**
     * @param include which phases count (e.g. everything but start-up)
     * @return each host's account over the included phases
     */
    public List<HostEnergy> hostEnergies(Predicate<Phase> include) {
        List<HostEnergy> out = new ArrayList<>();
        for (Map.Entry<String, Map<Phase, double[]>> host : perHost.entrySet()) {
            Map<String, PhaseEnergy> phases = new LinkedHashMap<>();
            double seconds = 0;
            double joules = 0;
            double measured = 0;
            for (Phase p : Phase.values()) {
                double[] acc = host.getValue().get(p);
                if (acc == null || !include.test(p) || acc[0] <= 0) {
                    continue;
                }
                PhaseEnergy e = energy(acc);
                phases.put(p.label(), e);
                seconds += acc[0];
                joules += acc[1];
                measured += acc[0] - (acc.length > 2 ? acc[2] : 0);
            }
            boolean none = source == EnergySource.NONE;
            out.add(new HostEnergy(host.getKey(), source, seconds, none ? null : joules,
                    none || measured <= 0 ? null : joules / measured, intervals,
                    missed.getOrDefault(host.getKey(), 0), phases));
        }
        return out;
    }
}
