package org.dfr.power.energy;

import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalDouble;
import org.dfr.power.meter.EnergySource;

/**
 * Integrates one host's energy per phase. Each interval's energy is split among the phases in force
 * during it in proportion to their time, i.e. power is taken as constant within an interval.
 */
public final class EnergyAccount {

    private final String host;
    private final EnergySource source;
    private final PhaseRecorder phases;
    private final Map<Phase, long[]> nanos = new EnumMap<>(Phase.class);
    private final Map<Phase, long[]> measuredNanos = new EnumMap<>(Phase.class);
    private final Map<Phase, double[]> joules = new EnumMap<>(Phase.class);
    private int intervals;
    private int missed;

    public EnergyAccount(String host, EnergySource source, PhaseRecorder phases) {
        this.host = Objects.requireNonNull(host, "host");
        this.source = Objects.requireNonNull(source, "source");
        this.phases = Objects.requireNonNull(phases, "phases");
    }

    /**
     * Adds the interval {@code [fromNanos, toNanos)}.
     *
     * @param energyJoules the energy of the interval; empty when nothing was measured
     */
    public synchronized void add(long fromNanos, long toNanos, OptionalDouble energyJoules) {
        if (toNanos < fromNanos) {
            throw new IllegalArgumentException("interval ends (" + toNanos + ") before it starts (" + fromNanos + ")");
        }
        intervals++;
        if (energyJoules.isEmpty() && source != EnergySource.NONE) {
            missed++;
        }
        long length = toNanos - fromNanos;
        for (Map.Entry<Phase, Long> part : phases.split(fromNanos, toNanos).entrySet()) {
            long partNanos = part.getValue();
            nanos.computeIfAbsent(part.getKey(), p -> new long[1])[0] += partNanos;
            if (energyJoules.isPresent() && length > 0) {
                measuredNanos.computeIfAbsent(part.getKey(), p -> new long[1])[0] += partNanos;
                joules.computeIfAbsent(part.getKey(), p -> new double[1])[0]
                        += energyJoules.getAsDouble() * partNanos / length;
            }
        }
    }

    /** @return the account so far */
    public synchronized HostEnergy summary() {
        Map<String, PhaseEnergy> perPhase = new LinkedHashMap<>();
        long totalNanos = 0;
        long totalMeasuredNanos = 0;
        double totalJoules = 0;
        for (Phase phase : Phase.values()) {
            long phaseNanos = nanos.getOrDefault(phase, new long[1])[0];
            if (phaseNanos == 0) {
                continue;
            }
            long phaseMeasured = measuredNanos.getOrDefault(phase, new long[1])[0];
            double phaseJoules = joules.getOrDefault(phase, new double[1])[0];
            totalNanos += phaseNanos;
            totalMeasuredNanos += phaseMeasured;
            totalJoules += phaseJoules;
            perPhase.put(phase.label(), new PhaseEnergy(phaseNanos / 1e9, energy(phaseJoules),
                    watts(phaseJoules, phaseMeasured)));
        }
        return new HostEnergy(host, source, totalNanos / 1e9, energy(totalJoules),
                watts(totalJoules, totalMeasuredNanos), intervals, missed, perPhase);
    }

    private Double energy(double value) {
        return source == EnergySource.NONE ? null : value;
    }

    private Double watts(double value, long measured) {
        return source == EnergySource.NONE || measured == 0 ? null : value / (measured / 1e9);
    }
}
