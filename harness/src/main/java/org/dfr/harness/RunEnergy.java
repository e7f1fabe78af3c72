package org.dfr.harness;

import com.fasterxml.jackson.core.type.TypeReference;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;
import org.dfr.power.HostName;
import org.dfr.power.Ticker;
import org.dfr.power.energy.EnergyReport;
import org.dfr.power.energy.Phase;
import org.dfr.power.energy.PhaseRecorder;
import org.dfr.power.energy.PowerSampler;
import org.dfr.power.meter.EnergySource;
import org.dfr.power.meter.MeterSelection;
import org.dfr.power.meter.MeterVerdict;
import org.dfr.power.meter.PowerMeterSelector;
import org.dfr.power.meter.PowerModel;
import org.dfr.power.sysfs.Sysfs;
import org.dfr.power.sysfs.SysfsRoot;

/**
 * Samples this machine's power around a run with the best meter it offers, and says so honestly
 * when there is none ({@code "source": "none"} with the reasons).
 */
final class RunEnergy {

    private RunEnergy() {
    }

    /**
     * @param model constants of the load model, used only when no counter exists; null for none
     */
    static <T> Measured<T> measure(Path sysfsRoot, long periodMillis, PowerModel model, Supplier<T> body) {
        Sysfs sysfs = Sysfs.at(SysfsRoot.of(sysfsRoot == null ? Path.of("/") : sysfsRoot));
        PowerMeterSelector selector = new PowerMeterSelector(sysfs);
        if (model != null) {
            selector.model(model);
        }
        MeterSelection selection = selector.select();
        if (selection.source() == EnergySource.NONE) {
            StringBuilder why = new StringBuilder("no power meter on this machine:");
            for (MeterVerdict v : selection.verdicts()) {
                why.append(' ').append(v.source()).append(": ").append(v.reason()).append(';');
            }
            return new Measured<>(body.get(), toMap(EnergyReport.none(why.toString())));
        }
        PhaseRecorder phases = new PhaseRecorder(Ticker.system());
        try (PowerSampler sampler = new PowerSampler(selection.meter(), phases, Ticker.system(), HostName.local(),
                periodMillis)) {
            sampler.start();
            phases.mark(Phase.COMPUTE);
            T result = body.get();
            sampler.stop();
            return new Measured<>(result, toMap(sampler.report()));
        } finally {
            try {
                selection.meter().close();
            } catch (Exception ignored) {
                // closing a meter only releases its files
            }
        }
    }

    static Map<String, Object> toMap(EnergyReport report) {
        try {
            return RunReports.JSON.readValue(report.toJson(), new TypeReference<LinkedHashMap<String, Object>>() {
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    record Measured<T>(T result, Map<String, Object> energy) {
    }
}
