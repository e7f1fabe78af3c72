package org.dfr.power.meter;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.dfr.power.Ticker;
import org.dfr.power.sysfs.Sysfs;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Chooses the best energy source of this machine: RAPL through powercap, then perf's
 * {@code power/energy-pkg/}, then the load model if (and only if) its constants are configured, else
 * none. Each candidate's verdict is logged with its reason and returned with the choice.
 *
 * <pre>{@code
 * MeterSelection selection = new PowerMeterSelector(Sysfs.system())
 *         .model(new PowerModel(40, 120))
 *         .select();
 * }</pre>
 */
public final class PowerMeterSelector {

    /** perf's default reporting interval when it is the chosen meter. */
    public static final long DEFAULT_PERF_INTERVAL_MILLIS = 100;

    private static final Logger LOG = LoggerFactory.getLogger(PowerMeterSelector.class);

    private final Sysfs sysfs;
    private PowerModel model;
    private Ticker ticker = Ticker.system();
    private Supplier<CpuLoadSource> cpuLoad = OshiCpuLoadSource::new;
    private Optional<Path> perfExecutable;
    private long perfIntervalMillis = DEFAULT_PERF_INTERVAL_MILLIS;

    public PowerMeterSelector(Sysfs sysfs) {
        this.sysfs = sysfs;
        this.perfExecutable = null;
    }

    /** Allows the load model with these constants; {@code null} (the default) forbids it. */
    public PowerMeterSelector model(PowerModel model) {
        this.model = model;
        return this;
    }

    /** The clock of the load model. */
    public PowerMeterSelector ticker(Ticker ticker) {
        this.ticker = ticker;
        return this;
    }

    /** The CPU load of the load model (default: OSHI). */
    public PowerMeterSelector cpuLoad(Supplier<CpuLoadSource> cpuLoad) {
        this.cpuLoad = cpuLoad;
        return this;
    }

    /** The perf executable (default: {@code perf} on {@code PATH}); empty means perf is not installed. */
    public PowerMeterSelector perfExecutable(Optional<Path> perf) {
        this.perfExecutable = perf;
        return this;
    }

    /** perf's reporting interval if perf is chosen. */
    public PowerMeterSelector perfIntervalMillis(long intervalMillis) {
        this.perfIntervalMillis = Math.max(10, intervalMillis);
        return this;
    }

    /** Probes every candidate and opens the best available one. */
    public MeterSelection select() {
        List<MeterVerdict> verdicts = new ArrayList<>();
        PowerMeter chosen = null;

        RaplProbe rapl = RaplPowercapMeter.probe(sysfs);
        if (rapl.available()) {
            try {
                chosen = RaplPowercapMeter.open(sysfs, rapl);
                verdicts.add(new MeterVerdict(EnergySource.RAPL, true, true, chosen.description()
                        + (rapl.notes().isEmpty() ? "" : "; " + String.join("; ", rapl.notes()))));
            } catch (IOException e) {
                verdicts.add(new MeterVerdict(EnergySource.RAPL, false, false, "cannot open: " + e.getMessage()));
            }
        } else {
            verdicts.add(new MeterVerdict(EnergySource.RAPL, false, false, rapl.unavailableReason()));
        }

        Optional<String> perfProblem = perfProblem();
        if (perfProblem.isPresent()) {
            verdicts.add(new MeterVerdict(EnergySource.PERF, false, false, perfProblem.get()));
        } else if (chosen != null) {
            verdicts.add(new MeterVerdict(EnergySource.PERF, true, false, "available; rapl preferred"));
        } else {
            try {
                chosen = PerfEnergyMeter.start(perfExecutable.orElseThrow(), perfIntervalMillis);
                verdicts.add(new MeterVerdict(EnergySource.PERF, true, true, chosen.description()));
            } catch (IOException e) {
                verdicts.add(new MeterVerdict(EnergySource.PERF, false, false, "cannot start perf: " + e.getMessage()));
            }
        }

        if (model == null) {
            verdicts.add(new MeterVerdict(EnergySource.MODEL, false, false,
                    "no model constants configured (idle and busy power in W)"));
        } else if (chosen != null) {
            verdicts.add(new MeterVerdict(EnergySource.MODEL, true, false,
                    "configured " + model.label() + "; a measured source is preferred"));
        } else {
            chosen = new LoadModelPowerMeter(model, cpuLoad.get(), SysfsFrequencyRatio.probe(sysfs), ticker);
            verdicts.add(new MeterVerdict(EnergySource.MODEL, true, true, chosen.description()));
        }

        if (chosen == null) {
            chosen = new NoPowerMeter("no energy counter found and no power model configured");
            verdicts.add(new MeterVerdict(EnergySource.NONE, true, true, "energy is not measured"));
        } else {
            verdicts.add(new MeterVerdict(EnergySource.NONE, true, false, chosen.source() + " chosen"));
        }
        verdicts.forEach(v -> LOG.info("power meter {}", v));
        return new MeterSelection(chosen, verdicts);
    }

    private Optional<String> perfProblem() {
        if (!sysfs.exists(PerfEnergyMeter.EVENT)) {
            return Optional.of(sysfs.display(PerfEnergyMeter.EVENT) + " does not exist (the kernel has no perf"
                    + " power PMU here)");
        }
        if (perfExecutable == null) {
            perfExecutable = PerfEnergyMeter.findOnPath("perf");
        }
        if (perfExecutable.isEmpty()) {
            return Optional.of("the event exists but no perf executable is on PATH (install linux-perf)");
        }
        return PerfEnergyMeter.trial(perfExecutable.get());
    }
}
