package org.dfr.power.energy;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.dfr.power.AtomicFiles;
import org.dfr.power.meter.EnergySource;

/**
 * The run report's {@code energy} object: energy per host and per phase, and where it comes from.
 *
 * @param source             {@code rapl}, {@code perf}, {@code model} or {@code none}; for hosts with
 *                           different sources, the least trustworthy of them
 * @param detail             what exactly was read, or why nothing was
 * @param parameters         the settings the figures depend on (for {@code model}: its constants)
 * @param samplePeriodMillis the sampler's period
 * @param seconds            sampled time, summed over hosts
 * @param joules             energy summed over hosts, {@code null} unless every host measured something
 * @param meanWatts          {@code joules} per second of a host, {@code null} likewise
 * @param phases             time and energy per phase summed over hosts
 * @param hosts              each host's account
 * @param notes              anything a reader must know (failed readings, mixed sources)
 */
public record EnergyReport(EnergySource source, String detail, Map<String, Object> parameters,
                           long samplePeriodMillis, double seconds, Double joules, Double meanWatts,
                           Map<String, PhaseEnergy> phases, List<HostEnergy> hosts, List<String> notes) {

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    public EnergyReport {
        parameters = Collections.unmodifiableMap(new LinkedHashMap<>(parameters));
        phases = Collections.unmodifiableMap(new LinkedHashMap<>(phases));
        hosts = List.copyOf(hosts);
        notes = List.copyOf(notes);
    }

    /** @return the report of a run that measured nothing, saying why */
    public static EnergyReport none(String reason) {
        return new EnergyReport(EnergySource.NONE, reason, Map.of(), 0, 0, null, null, Map.of(), List.of(),
                List.of());
    }

    /** @return the report combining {@code hosts}, summing time and energy per phase */
    public static EnergyReport of(String detail, Map<String, Object> parameters, long samplePeriodMillis,
                                  List<HostEnergy> hosts, List<String> notes) {
        if (hosts.isEmpty()) {
            return none(detail);
        }
        EnergySource source = hosts.stream().map(HostEnergy::source).max(Enum::compareTo).orElseThrow();
        List<String> allNotes = new ArrayList<>(notes);
        if (hosts.stream().map(HostEnergy::source).distinct().count() > 1) {
            allNotes.add("hosts use different sources: " + hosts.stream()
                    .map(h -> h.host() + "=" + h.source()).toList());
        }
        boolean measured = hosts.stream().allMatch(h -> h.joules() != null);
        double seconds = 0;
        double joules = 0;
        double measuredSeconds = 0;
        Map<String, double[]> perPhase = new LinkedHashMap<>();
        for (Phase phase : Phase.values()) {
            for (HostEnergy host : hosts) {
                PhaseEnergy energy = host.phases().get(phase.label());
                if (energy == null) {
                    continue;
                }
                double[] sums = perPhase.computeIfAbsent(phase.label(), p -> new double[3]);
                sums[0] += energy.seconds();
                if (energy.joules() != null && energy.meanWatts() != null && energy.meanWatts() > 0) {
                    sums[1] += energy.joules();
                    sums[2] += energy.joules() / energy.meanWatts();
                }
            }
        }
        for (HostEnergy host : hosts) {
            seconds += host.seconds();
            if (host.joules() != null && host.meanWatts() != null && host.meanWatts() > 0) {
                joules += host.joules();
                measuredSeconds += host.joules() / host.meanWatts();
            }
        }
        Map<String, PhaseEnergy> phases = new LinkedHashMap<>();
        for (Map.Entry<String, double[]> entry : perPhase.entrySet()) {
            double[] s = entry.getValue();
            phases.put(entry.getKey(), new PhaseEnergy(s[0], measured ? s[1] : null,
                    measured && s[2] > 0 ? s[1] / s[2] : null));
        }
        return new EnergyReport(source, detail, parameters, samplePeriodMillis, seconds, measured ? joules : null,
                measured && measuredSeconds > 0 ? joules / measuredSeconds : null, phases, hosts, allNotes);
    }

    /** @return the report as indented JSON */
    public String toJson() {
        try {
            return JSON.writeValueAsString(this);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Writes the report as JSON, atomically. */
    public void writeJson(Path file) throws IOException {
        AtomicFiles.writeString(file, toJson() + System.lineSeparator());
    }
}
