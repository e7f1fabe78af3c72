package org.dfr.cli.power;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.dfr.cli.options.CliFiles;
import org.dfr.cli.options.PowerModelOptions;
import org.dfr.power.HostName;
import org.dfr.power.Ticker;
import org.dfr.power.energy.EnergyReport;
import org.dfr.power.energy.PhaseEnergy;
import org.dfr.power.energy.PhaseRecorder;
import org.dfr.power.energy.PowerSampler;
import org.dfr.power.meter.MeterSelection;
import org.dfr.power.meter.MeterVerdict;
import org.dfr.power.meter.PowerMeter;
import org.dfr.power.meter.PowerMeterSelector;
import org.dfr.power.sysfs.Sysfs;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code dfr power sample}: samples this host's power for a while and reports the energy. */
@Command(name = "sample", mixinStandardHelpOptions = true,
        description = {"Sample this host's power for some seconds from the best source it has and print the"
                + " energy report (JSON, the run report's `energy` object).",
                "Sources: rapl, perf, model (only with --idle-power-watts and --busy-power-watts), none."})
public final class PowerSampleCommand implements Callable<Integer> {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Mixin
    SysfsOptions sysfsOptions;

    @Mixin
    PowerModelOptions modelOptions;

    @Option(names = "--seconds", paramLabel = "S", required = true, description = "How long to sample (> 0).")
    double seconds;

    @Option(names = "--period-millis", paramLabel = "P", defaultValue = "100",
            description = "Sampling period in ms (default: ${DEFAULT-VALUE}; the paper used 500).")
    long periodMillis;

    @Option(names = "--csv", paramLabel = "FILE", description = "Write every sample to this CSV file.")
    Path csv;

    @Option(names = {"--json", "--report"}, paramLabel = "FILE", description = "Also write the energy report to this JSON file.")
    Path json;

    @Override
    public Integer call() throws InterruptedException {
        CommandLine cl = spec.commandLine();
        if (!(seconds > 0) || seconds > 86_400) {
            throw new CommandLine.ParameterException(cl, "--seconds " + seconds + ": must be > 0 and at most 86400");
        }
        if (periodMillis < 1 || periodMillis > 60_000) {
            throw new CommandLine.ParameterException(cl, "--period-millis " + periodMillis
                    + ": must be between 1 and 60000");
        }
        // before sampling for --seconds, not after: a directory given as --csv used to end the command then
        CliFiles.requireWritableTarget(spec, "--csv", csv);
        CliFiles.requireWritableTarget(spec, "--json", json);
        Sysfs sysfs = sysfsOptions.sysfs(cl);
        PrintWriter out = cl.getOut();
        MeterSelection selection = new PowerMeterSelector(sysfs).model(modelOptions.model(cl))
                .perfIntervalMillis(periodMillis).select();
        for (MeterVerdict verdict : selection.verdicts()) {
            out.println("  " + verdict);
        }
        out.printf(Locale.ROOT, "sampling %s every %d ms for %.3f s (source %s)%n", HostName.local(), periodMillis,
                seconds, selection.source());
        out.flush();
        EnergyReport report;
        try (PowerMeter meter = selection.meter();
             PowerSampler sampler = new PowerSampler(meter, new PhaseRecorder(Ticker.system()), Ticker.system(),
                     HostName.local(), periodMillis)) {
            sampler.start();
            Thread.sleep(Math.round(seconds * 1000));
            sampler.stop();
            report = sampler.report();
            if (csv != null) {
                sampler.writeCsv(csv);
                out.println("samples: " + csv + " (" + sampler.samples().size() + " rows)");
            }
            if (json != null) {
                report.writeJson(json);
                out.println("report: " + json);
            }
        } catch (IOException e) {
            cl.getErr().println("dfr power sample: cannot write the output: " + e.getMessage());
            cl.getErr().flush();
            return 1;
        }
        printSummary(out, report);
        out.println(report.toJson());
        out.flush();
        return 0;
    }

    private static void printSummary(PrintWriter out, EnergyReport report) {
        if (report.joules() == null) {
            out.printf(Locale.ROOT, "energy: not measured over %.3f s (source %s)%n", report.seconds(), report.source());
            return;
        }
        out.printf(Locale.ROOT, "energy: %.3f J over %.3f s, mean %.2f W (source %s)%n", report.joules(),
                report.seconds(), report.meanWatts(), report.source());
        for (Map.Entry<String, PhaseEnergy> phase : report.phases().entrySet()) {
            PhaseEnergy e = phase.getValue();
            out.printf(Locale.ROOT, "  %-16s %.3f s  %.3f J  %s W%n", phase.getKey(), e.seconds(), e.joules(),
                    e.meanWatts() == null ? "?" : String.format(Locale.ROOT, "%.2f", e.meanWatts()));
        }
    }
}
