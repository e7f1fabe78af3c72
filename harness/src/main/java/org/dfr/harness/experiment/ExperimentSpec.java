package org.dfr.harness.experiment;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.RecordComponent;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.dfr.harness.Mode;
import org.dfr.harness.EmbeddedLimits;
import org.dfr.harness.RunConfig;
import org.dfr.power.meter.PowerModel;
import org.dfr.recovery.FaultPlan;
import org.dfr.runtime.kernel.KernelCatalog;
import org.dfr.runtime.kernel.KernelChoice;
import org.dfr.runtime.kernel.KernelProblem;

/**
 * An energy experiment: one scenario times variants, repeated. Read from YAML or JSON (the same field
 * names), from a preset, or from flags; written back into the output directory as {@code experiment.json}.
 *
 * @param name              a name for titles (none by default: titles then name the kernel and the cells)
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
 * @param sweep             one setting varied over values, each a whole experiment ({@link ExperimentSweep}); null
 *                          for one experiment
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = false)
public record ExperimentSpec(String name, String kernel, List<Integer> cells, List<Integer> ranksGrid, Integer iterations,
                             Integer checkpointEvery, List<String> failures, String mode, Integer ranksPerHost,
                             List<Variant> variants, Integer repetitions, Integer warmups, Long seed,
                             Double idlePowerWatts, Double busyPowerWatts, Double modelAlpha,
                             Double modelIdleClockShare, String sysfsRoot, Boolean fakeSysfs, Long fakeMinKHz,
                             Long fakeMaxKHz, Long samplePeriodMillis, Map<String, String> kernelOptions,
                             List<String> kernelJars, Sweep sweep) {

    // a key given twice in a file is a mistake to name, not one for the last value to hide
    static final ObjectMapper JSON = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT)
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();
    static final ObjectMapper YAML = YAMLMapper.builder().enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();

    /** Every field empty: {@link #orElse} fills them. */
    public static ExperimentSpec empty() {
        return builder().build();
    }

    /** The defaults of anything not given. */
    public static ExperimentSpec defaults() {
        return builder().kernel(KernelCatalog.DEFAULT_KERNEL).cells(List.of(256, 256))
                .ranksGrid(List.of(2, 4)).iterations(10).checkpointEvery(10).failures(List.of("1@4")).mode("embedded")
                .ranksPerHost(2).variants(List.of(Variant.GLOBAL, Variant.DFR, Variant.DFR_CAPPING)).repetitions(3)
                .warmups(1).seed(1L).modelAlpha(1.0).modelIdleClockShare(0.0).fakeSysfs(false)
                .fakeMinKHz(1_200_000L).fakeMaxKHz(2_600_000L).samplePeriodMillis(100L).kernelOptions(Map.of())
                .kernelJars(List.of()).build();
    }

    /**
     * The paper's Fig. 5 case: 2x4 ranks on 4 hosts of 2, checkpoint at 0, rank 1 killed at the start of
     * iteration 4, 10 iterations; 8192x8192 cells, the largest grid whose iteration time approaches the paper's
     * second on a 2-core machine and whose one heap still fits a 24 GB machine (see docs/experiments.md); the
     * load model on a fake cpufreq tree per host (this VM has neither RAPL nor cpufreq).
     */
    public static ExperimentSpec paperFig5() {
        return defaults().toBuilder().name("paper-fig5").cells(List.of(8192, 8192)).repetitions(5)
                .idlePowerWatts(40.0).busyPowerWatts(120.0).modelIdleClockShare(0.25).fakeSysfs(true)
                .samplePeriodMillis(50L).build();
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
        return toBuilder().kernelJars(kernelJars.stream().map(j -> dir.resolve(j).normalize().toString()).toList())
                .build();
    }

    /** @return this spec with every empty field taken from {@code base} */
    public ExperimentSpec orElse(ExperimentSpec base) {
        // component by component, so that a field added to the record cannot be forgotten here
        RecordComponent[] components = ExperimentSpec.class.getRecordComponents();
        Object[] merged = new Object[components.length];
        try {
            for (int i = 0; i < components.length; i++) {
                Object value = components[i].getAccessor().invoke(this);
                merged[i] = value != null ? value : components[i].getAccessor().invoke(base);
            }
            return CANONICAL.newInstance(merged);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot merge experiment specs: " + e, e);
        }
    }

    private static final Constructor<ExperimentSpec> CANONICAL = canonicalConstructor();

    private static Constructor<ExperimentSpec> canonicalConstructor() {
        Class<?>[] types = Arrays.stream(ExperimentSpec.class.getRecordComponents()).map(RecordComponent::getType)
                .toArray(Class<?>[]::new);
        try {
            return ExperimentSpec.class.getDeclaredConstructor(types);
        } catch (NoSuchMethodException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** @return the {@link #name}, or for an unnamed experiment its kernel and cells, e.g. {@code jacobi2d5 256x256} */
    public String title() {
        if (name != null) {
            return name;
        }
        return kernel + (cells == null ? "" : " " + KernelProblem.join(cells));
    }

    /** @return the load model, or null when not configured */
    public PowerModel model() {
        if (idlePowerWatts == null && busyPowerWatts == null) {
            return null;
        }
        if (idlePowerWatts == null || busyPowerWatts == null) {
            throw new IllegalArgumentException("the power model needs both idlePowerWatts and busyPowerWatts (--idle-power-watts and"
                    + " --busy-power-watts)");
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
        // the model's own constants are checked with the model; without idle and busy power they went unchecked
        if (modelIdleClockShare != null && !(modelIdleClockShare >= 0 && modelIdleClockShare <= 1)) {
            throw new IllegalArgumentException("modelIdleClockShare (--model-idle-clock-share) " + modelIdleClockShare
                    + " is not allowed: 0..1");
        }
        if (modelAlpha != null && !(Double.isFinite(modelAlpha) && modelAlpha >= 0)) {
            throw new IllegalArgumentException("modelAlpha (--model-alpha) " + modelAlpha
                    + " is not allowed: a finite number >= 0");
        }
        if (repetitions < 1) {
            throw new IllegalArgumentException("repetitions (--repetitions) " + repetitions + " is not allowed: give 1 or more");
        }
        if (warmups < 0) {
            throw new IllegalArgumentException("warmups (--warmups) " + warmups + " is not allowed: give 0 or more");
        }
        if (variants.isEmpty()) {
            throw new IllegalArgumentException("variants (--variants) is empty: give one or more of global, dfr, dfr+capping");
        }
        if (Set.copyOf(variants).size() < variants.size()) {
            // each variant is one series of every plot and one row of every table: a second copy has no place
            throw new IllegalArgumentException("variants " + variants + " name a variant twice: give each of"
                    + " global, dfr, dfr+capping at most once (--repetitions repeats them)");
        }
        if (fakeMinKHz != null && fakeMaxKHz != null && !(fakeMinKHz >= 1 && fakeMinKHz < fakeMaxKHz)) {
            throw new IllegalArgumentException("fakeMinKHz " + fakeMinKHz + " and fakeMaxKHz " + fakeMaxKHz + " are not"
                    + " allowed: give 1 <= fakeMinKHz < fakeMaxKHz (the cap frequency and the full one, in kHz)");
        }
        if (samplePeriodMillis != null && samplePeriodMillis < 1) {
            throw new IllegalArgumentException("samplePeriodMillis (--sample-period-millis) " + samplePeriodMillis
                    + " is not allowed: give a period >= 1 ms");
        }
        if (sweep != null) {
            // every point whole, before any run: a bad value found at the third point would cost two experiments
            List<ExperimentSpec> points = sweep.points(this);
            for (int i = 0; i < points.size(); i++) {
                try {
                    points.get(i).validate();
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("sweep point " + sweep.pointLabel(i) + ": " + e.getMessage(), e);
                }
            }
            return;
        }
        model();
        for (Variant v : variants) {
            EmbeddedLimits.ofThisJvm().require(config(v, sysfsRoot == null ? null : Path.of(sysfsRoot), null));
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

    /** @return a builder with every field empty */
    public static Builder builder() {
        return new Builder();
    }

    /** @return a builder holding this spec's fields */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.name = name;
        b.kernel = kernel;
        b.cells = cells;
        b.ranksGrid = ranksGrid;
        b.iterations = iterations;
        b.checkpointEvery = checkpointEvery;
        b.failures = failures;
        b.mode = mode;
        b.ranksPerHost = ranksPerHost;
        b.variants = variants;
        b.repetitions = repetitions;
        b.warmups = warmups;
        b.seed = seed;
        b.idlePowerWatts = idlePowerWatts;
        b.busyPowerWatts = busyPowerWatts;
        b.modelAlpha = modelAlpha;
        b.modelIdleClockShare = modelIdleClockShare;
        b.sysfsRoot = sysfsRoot;
        b.fakeSysfs = fakeSysfs;
        b.fakeMinKHz = fakeMinKHz;
        b.fakeMaxKHz = fakeMaxKHz;
        b.samplePeriodMillis = samplePeriodMillis;
        b.kernelOptions = kernelOptions;
        b.kernelJars = kernelJars;
        b.sweep = sweep;
        return b;
    }

    /**
     * Builds an {@link ExperimentSpec} by field name; a field not set stays empty (null), for {@link #orElse}
     * to fill.
     */
    public static final class Builder {
        private String name;
        private String kernel;
        private List<Integer> cells;
        private List<Integer> ranksGrid;
        private Integer iterations;
        private Integer checkpointEvery;
        private List<String> failures;
        private String mode;
        private Integer ranksPerHost;
        private List<Variant> variants;
        private Integer repetitions;
        private Integer warmups;
        private Long seed;
        private Double idlePowerWatts;
        private Double busyPowerWatts;
        private Double modelAlpha;
        private Double modelIdleClockShare;
        private String sysfsRoot;
        private Boolean fakeSysfs;
        private Long fakeMinKHz;
        private Long fakeMaxKHz;
        private Long samplePeriodMillis;
        private Map<String, String> kernelOptions;
        private List<String> kernelJars;
        private Sweep sweep;

        private Builder() {
        }

        /** @see ExperimentSpec#name() */
        public Builder name(String name) {
            this.name = name;
            return this;
        }

        /** @see ExperimentSpec#kernel() */
        public Builder kernel(String kernel) {
            this.kernel = kernel;
            return this;
        }

        /** @see ExperimentSpec#cells() */
        public Builder cells(List<Integer> cells) {
            this.cells = cells;
            return this;
        }

        /** @see ExperimentSpec#ranksGrid() */
        public Builder ranksGrid(List<Integer> ranksGrid) {
            this.ranksGrid = ranksGrid;
            return this;
        }

        /** @see ExperimentSpec#iterations() */
        public Builder iterations(Integer iterations) {
            this.iterations = iterations;
            return this;
        }

        /** @see ExperimentSpec#checkpointEvery() */
        public Builder checkpointEvery(Integer checkpointEvery) {
            this.checkpointEvery = checkpointEvery;
            return this;
        }

        /** @see ExperimentSpec#failures() */
        public Builder failures(List<String> failures) {
            this.failures = failures;
            return this;
        }

        /** @see ExperimentSpec#mode() */
        public Builder mode(String mode) {
            this.mode = mode;
            return this;
        }

        /** @see ExperimentSpec#ranksPerHost() */
        public Builder ranksPerHost(Integer ranksPerHost) {
            this.ranksPerHost = ranksPerHost;
            return this;
        }

        /** @see ExperimentSpec#variants() */
        public Builder variants(List<Variant> variants) {
            this.variants = variants;
            return this;
        }

        /** @see ExperimentSpec#repetitions() */
        public Builder repetitions(Integer repetitions) {
            this.repetitions = repetitions;
            return this;
        }

        /** @see ExperimentSpec#warmups() */
        public Builder warmups(Integer warmups) {
            this.warmups = warmups;
            return this;
        }

        /** @see ExperimentSpec#seed() */
        public Builder seed(Long seed) {
            this.seed = seed;
            return this;
        }

        /** @see ExperimentSpec#idlePowerWatts() */
        public Builder idlePowerWatts(Double idlePowerWatts) {
            this.idlePowerWatts = idlePowerWatts;
            return this;
        }

        /** @see ExperimentSpec#busyPowerWatts() */
        public Builder busyPowerWatts(Double busyPowerWatts) {
            this.busyPowerWatts = busyPowerWatts;
            return this;
        }

        /** @see ExperimentSpec#modelAlpha() */
        public Builder modelAlpha(Double modelAlpha) {
            this.modelAlpha = modelAlpha;
            return this;
        }

        /** @see ExperimentSpec#modelIdleClockShare() */
        public Builder modelIdleClockShare(Double modelIdleClockShare) {
            this.modelIdleClockShare = modelIdleClockShare;
            return this;
        }

        /** @see ExperimentSpec#sysfsRoot() */
        public Builder sysfsRoot(String sysfsRoot) {
            this.sysfsRoot = sysfsRoot;
            return this;
        }

        /** @see ExperimentSpec#fakeSysfs() */
        public Builder fakeSysfs(Boolean fakeSysfs) {
            this.fakeSysfs = fakeSysfs;
            return this;
        }

        /** @see ExperimentSpec#fakeMinKHz() */
        public Builder fakeMinKHz(Long fakeMinKHz) {
            this.fakeMinKHz = fakeMinKHz;
            return this;
        }

        /** @see ExperimentSpec#fakeMaxKHz() */
        public Builder fakeMaxKHz(Long fakeMaxKHz) {
            this.fakeMaxKHz = fakeMaxKHz;
            return this;
        }

        /** @see ExperimentSpec#samplePeriodMillis() */
        public Builder samplePeriodMillis(Long samplePeriodMillis) {
            this.samplePeriodMillis = samplePeriodMillis;
            return this;
        }

        /** @see ExperimentSpec#kernelOptions() */
        public Builder kernelOptions(Map<String, String> kernelOptions) {
            this.kernelOptions = kernelOptions;
            return this;
        }

        /** @see ExperimentSpec#kernelJars() */
        public Builder kernelJars(List<String> kernelJars) {
            this.kernelJars = kernelJars;
            return this;
        }

        /** @see ExperimentSpec#sweep() */
        public Builder sweep(Sweep sweep) {
            this.sweep = sweep;
            return this;
        }

        /** @return the spec */
        public ExperimentSpec build() {
            return new ExperimentSpec(name, kernel, cells, ranksGrid, iterations, checkpointEvery, failures, mode,
                    ranksPerHost, variants, repetitions, warmups, seed, idlePowerWatts, busyPowerWatts, modelAlpha,
                    modelIdleClockShare, sysfsRoot, fakeSysfs, fakeMinKHz, fakeMaxKHz, samplePeriodMillis,
                    kernelOptions, kernelJars, sweep);
        }
    }
}
