package org.dfr.harness.experiment;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.dfr.harness.Mode;
import org.dfr.harness.RunConfig;
import org.dfr.power.meter.PowerModel;
import org.dfr.recovery.FaultPlan;
import org.dfr.runtime.kernel.KernelCatalog;
import org.dfr.runtime.kernel.KernelChoice;

/**
 * An energy experiment: one scenario times variants, repeated. Read from YAML or JSON (the same field
 * names), from a preset, or from flags; written back into the output directory as {@code experiment.json}.
 *
 * @param name              a name for titles
 * @param kernel            the kernel ({@code dfr kernels})
 * @param cells             interior cells per axis
 * @param ranksGrid         ranks per axis
 * @param iterations        iterations per run
 * @param checkpointEvery   checkpoint interval
 * @param failures          {@code RANK@ITER}: the rank dies at the start of ITER
 * @param mode              {@code embedded} or {@code processes}
 * @param ranksPerHost      ranks per simulated host
 * @param variants          the variants, default the paper's three
 * @param repetitions       measured runs per variant
 * @param warmups           runs before the measured ones (not counted), cycling over the variants
 * @param seed              seed of the order of the runs
 * @param idlePowerWatts    load model: idle power (null: no model)
 * @param busyPowerWatts    load model: busy power
 * @param modelAlpha        load model: exponent of {@code f / f_max}
 * @param modelIdleClockShare load model: share of the idle power that follows the clock
 * @param sysfsRoot         the sysfs tree capping writes and the model reads (null: {@code /}, or the fake tree)
 * @param fakeSysfs         create a fake cpufreq tree per host in the output directory and use it
 * @param fakeMinKHz        the fake tree's {@code cpuinfo_min_freq}
 * @param fakeMaxKHz        the fake tree's {@code cpuinfo_max_freq}
 * @param samplePeriodMillis power sampling period
 * @param kernelOptions     the kernel's options ({@code --kernel-option KEY=VALUE}; {@code dfr kernels} lists them)
 * @param kernelJars        jars with more kernels ({@code --kernel-jar FILE}), for a kernel of your own; in a
 *                          config file relative to the file's directory
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = false)
public record ExperimentSpec(String name, String kernel, List<Integer> cells, List<Integer> ranksGrid, Integer iterations,
                             Integer checkpointEvery, List<String> failures, String mode, Integer ranksPerHost,
                             List<Variant> variants, Integer repetitions, Integer warmups, Long seed,
                             Double idlePowerWatts, Double busyPowerWatts, Double modelAlpha,
                             Double modelIdleClockShare, String sysfsRoot, Boolean fakeSysfs, Long fakeMinKHz,
                             Long fakeMaxKHz, Long samplePeriodMillis, Map<String, String> kernelOptions,
                             List<String> kernelJars) {

    static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    /** Every field empty: {@link #orElse} fills them. */
    public static ExperimentSpec empty() {
        return new ExperimentSpec(null, null, null, null, null, null, null, null, null, null, null, null, null, null,
                null, null, null, null, null, null, null, null, null, null);
    }

    /** The defaults of anything not given. */
    public static ExperimentSpec defaults() {
        return new ExperimentSpec("experiment", KernelCatalog.DEFAULT_KERNEL, List.of(256, 256), List.of(2, 4), 10, 10,
                List.of("1@4"), "embedded", 2, List.of(Variant.GLOBAL, Variant.DFR, Variant.DFR_CAPPING), 3, 1, 1L, null, null, 1.0,
                0.0, null, false, 1_200_000L, 2_600_000L, 100L, Map.of(), List.of());
    }

    /**
     * The paper's Fig. 5 case: 2x4 ranks on 4 hosts of 2, checkpoint at 0, rank 1 killed at the start of
     * iteration 4, 10 iterations; 8192x8192 cells, the largest grid whose iteration time approaches the paper's
     * second on a 2-core machine and whose one heap still fits a 24 GB machine (see docs/experiments.md); the
     * load model on a fake cpufreq tree per host (this VM has neither RAPL nor cpufreq).
     */
    public static ExperimentSpec paperFig5() {
        return new ExperimentSpec("paper-fig5", KernelCatalog.DEFAULT_KERNEL, List.of(8192, 8192), List.of(2, 4), 10, 10,
                List.of("1@4"), "embedded", 2, List.of(Variant.GLOBAL, Variant.DFR, Variant.DFR_CAPPING), 5, 1, 1L,
                40.0, 120.0, 1.0, 0.25, null, true, 1_200_000L, 2_600_000L, 50L, Map.of(), List.of());
    }

    /** @return the named preset */
    public static ExperimentSpec preset(String name) {
        if ("paper-fig5".equals(name)) {
            return paperFig5();
        }
        throw new IllegalArgumentException("unknown preset '" + name + "': the presets are paper-fig5");
    }

    /** Reads a YAML or JSON file (by its extension; YAML otherwise, which also reads JSON). */
    public static ExperimentSpec read(Path file) throws IOException {
        ObjectMapper mapper = file.getFileName().toString().toLowerCase().endsWith(".json") ? JSON : YAML;
        ExperimentSpec read = mapper.readValue(file.toFile(), ExperimentSpec.class);
        return read.withKernelJarsFrom(file.toAbsolutePath().getParent());
    }

    /** This spec with its relative kernel jars resolved against {@code dir} (a config file's directory). */
    ExperimentSpec withKernelJarsFrom(Path dir) {
        if (kernelJars == null || kernelJars.isEmpty()) {
            return this;
        }
        List<String> absolute = kernelJars.stream().map(j -> dir.resolve(j).normalize().toString()).toList();
        return new ExperimentSpec(name, kernel, cells, ranksGrid, iterations, checkpointEvery, failures, mode,
                ranksPerHost, variants, repetitions, warmups, seed, idlePowerWatts, busyPowerWatts, modelAlpha,
                modelIdleClockShare, sysfsRoot, fakeSysfs, fakeMinKHz, fakeMaxKHz, samplePeriodMillis, kernelOptions,
                absolute);
    }

    /** @return this spec with every empty field taken from {@code base} */
    public ExperimentSpec orElse(ExperimentSpec base) {
        return new ExperimentSpec(or(name, base.name), or(kernel, base.kernel), or(cells, base.cells),
                or(ranksGrid, base.ranksGrid), or(iterations, base.iterations), or(checkpointEvery, base.checkpointEvery),
                or(failures, base.failures), or(mode, base.mode), or(ranksPerHost, base.ranksPerHost),
                or(variants, base.variants), or(repetitions, base.repetitions), or(warmups, base.warmups),
                or(seed, base.seed), or(idlePowerWatts, base.idlePowerWatts), or(busyPowerWatts, base.busyPowerWatts),
                or(modelAlpha, base.modelAlpha), or(modelIdleClockShare, base.modelIdleClockShare),
                or(sysfsRoot, base.sysfsRoot), or(fakeSysfs, base.fakeSysfs), or(fakeMinKHz, base.fakeMinKHz),
                or(fakeMaxKHz, base.fakeMaxKHz), or(samplePeriodMillis, base.samplePeriodMillis),
                or(kernelOptions, base.kernelOptions), or(kernelJars, base.kernelJars));
    }

    private static <T> T or(T value, T fallback) {
        return value != null ? value : fallback;
    }

    /** @return the load model, or null when not configured */
    public PowerModel model() {
        if (idlePowerWatts == null && busyPowerWatts == null) {
            return null;
        }
        if (idlePowerWatts == null || busyPowerWatts == null) {
            throw new IllegalArgumentException("the power model needs both idlePowerWatts and busyPowerWatts");
        }
        return new PowerModel(idlePowerWatts, busyPowerWatts, modelAlpha == null ? 1.0 : modelAlpha,
                modelIdleClockShare == null ? 0.0 : modelIdleClockShare);
    }

    /** @return the kills of {@link #failures} */
    public List<FaultPlan.Kill> kills() {
        List<FaultPlan.Kill> kills = new ArrayList<>();
        for (String f : failures) {
            kills.add(FaultPlan.parseKill(f));
        }
        return kills;
    }

    /** Checks the values and builds the run of every variant once (so bad sizes fail before any run). */
    public void validate() {
        if (repetitions < 1) {
            throw new IllegalArgumentException("repetitions must be >= 1, was " + repetitions);
        }
        if (warmups < 0) {
            throw new IllegalArgumentException("warmups must be >= 0, was " + warmups);
        }
        if (variants.isEmpty()) {
            throw new IllegalArgumentException("give at least one variant");
        }
        if (samplePeriodMillis != null && samplePeriodMillis < 1) {
            throw new IllegalArgumentException("samplePeriodMillis (--sample-period-millis) " + samplePeriodMillis
                    + " is not allowed: give a period >= 1 ms");
        }
        model();
        for (Variant v : variants) {
            config(v, sysfsRoot == null ? null : Path.of(sysfsRoot), null);
        }
    }

    private static Mode mode(String name) {
        for (Mode m : Mode.values()) {
            if (m.name().equalsIgnoreCase(name)) {
                return m;
            }
        }
        throw new IllegalArgumentException("mode (--mode) '" + name + "' is not allowed: one of "
                + Arrays.stream(Mode.values()).map(m -> m.name().toLowerCase(Locale.ROOT)).toList());
    }

    /** @return the run configuration of {@code variant} */
    public RunConfig config(Variant variant, Path sysfs, Path journals) {
        RunConfig config = RunConfig.of(KernelChoice.of(kernel, kernelOptions == null ? Map.of() : kernelOptions),
                        kernelJars == null ? List.of() : kernelJars.stream().map(Path::of).toList(), cells, ranksGrid,
                        iterations, checkpointEvery)
                .withRanksPerHost(ranksPerHost)
                .withMode(mode(mode))
                .withStrategy(variant.strategy())
                .withFaults(kills(), List.of(), Set.of())
                .withSamplePeriodMillis(samplePeriodMillis);
        return variant.capping() ? config.withCapping(true, sysfs, journals) : config.withCapping(false, sysfs, null);
    }

    /** @return the JSON text */
    public String toJson() throws IOException {
        return JSON.writeValueAsString(this);
    }
}
