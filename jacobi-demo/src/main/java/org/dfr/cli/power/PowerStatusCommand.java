package org.dfr.cli.power;

import java.io.PrintWriter;
import java.util.concurrent.Callable;
import org.dfr.cli.options.PowerModelOptions;
import org.dfr.power.freq.CpufreqPolicy;
import org.dfr.power.freq.FrequencyCapabilities;
import org.dfr.power.freq.FrequencyControllers;
import org.dfr.power.freq.IntelPstateLimits;
import org.dfr.power.freq.RestoreJournal;
import org.dfr.power.meter.MeterSelection;
import org.dfr.power.meter.MeterVerdict;
import org.dfr.power.meter.PowerMeter;
import org.dfr.power.meter.PowerMeterSelector;
import org.dfr.power.sysfs.Sysfs;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code dfr power status}: what this machine offers for frequency control and power, and why not. */
@Command(name = "status", mixinStandardHelpOptions = true,
        description = "Show what this machine offers for frequency capping and power measurement, and why not.")
public final class PowerStatusCommand implements Callable<Integer> {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Mixin
    SysfsOptions sysfsOptions;

    @Mixin
    JournalOptions journalOptions;

    @Mixin
    PowerModelOptions modelOptions;

    @Override
    public Integer call() {
        CommandLine cl = spec.commandLine();
        Sysfs sysfs = sysfsOptions.sysfs(cl);
        RestoreJournal journal = journalOptions.journal(cl, sysfsOptions);
        PrintWriter out = cl.getOut();

        out.println("Sysfs root: " + sysfs.root());
        FrequencyCapabilities caps = FrequencyControllers.inspect(sysfs);
        printFrequency(out, caps);
        out.println("Restore journal: " + journal.file() + (journal.exists()
                ? " (PRESENT: a cap is in force or was left by a killed process; run `dfr power restore`)"
                : " (none: nothing to restore)"));

        MeterSelection selection = new PowerMeterSelector(sysfs).model(modelOptions.model(cl)).select();
        try (PowerMeter meter = selection.meter()) {
            out.println("Power meters (in order of preference):");
            for (MeterVerdict verdict : selection.verdicts()) {
                String state = verdict.chosen() ? "chosen" : verdict.available() ? "available" : "not available";
                out.printf("  %-6s %-14s %s%n", verdict.source(), state, verdict.reason());
            }
            out.println("Energy source: " + selection.source());
        }
        out.flush();
        return 0;
    }

    private static void printFrequency(PrintWriter out, FrequencyCapabilities caps) {
        if (!caps.controllable()) {
            out.println("Frequency capping: not available");
            out.println("  reason: " + caps.reason());
        } else {
            out.println("Frequency capping: available (" + caps.writablePolicies().size() + " of "
                    + caps.policies().size() + " policies writable, driver " + caps.drivers() + ", layout "
                    + caps.layout() + ")");
        }
        for (CpufreqPolicy p : caps.policies()) {
            out.printf("  %-9s cpus %-6s driver %-14s governor %-12s hw %d..%d kHz, limits %d..%d kHz, cur %s%s%n",
                    p.name(), p.affectedCpus(), p.driver(), p.governor(), p.cpuinfoMinKHz(), p.cpuinfoMaxKHz(),
                    p.scalingMinKHz(), p.scalingMaxKHz(), p.currentKHz() < 0 ? "?" : p.currentKHz() + " kHz",
                    p.writable() ? "" : " (not writable)");
        }
        for (String problem : caps.problems()) {
            out.println("  problem: " + problem);
        }
        IntelPstateLimits pstate = caps.intelPstate();
        if (pstate != null) {
            out.println("  intel_pstate: status " + pstate.status() + ", max_perf_pct " + pstate.maxPerfPct()
                    + " % of max turbo (= " + pstate.maxPerfKHz() + " kHz), min_perf_pct " + pstate.minPerfPct()
                    + " %, no_turbo " + (pstate.noTurbo() ? 1 : 0));
        }
    }
}
