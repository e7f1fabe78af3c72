package org.dfr.harness;

import java.util.Locale;
import org.dfr.runtime.kernel.KernelProblem;

/**
 * What an embedded run (every rank a Hazelcast member in this one JVM) can hold on this machine, checked before any
 * member starts: a run past these limits would not fail at once but after minutes, as a cluster that never forms or an
 * {@link OutOfMemoryError}.
 *
 * <ul>
 *   <li><b>Ranks:</b> at most {@link #RANKS_PER_CORE} a core. Each member brings its own Hazelcast threads; on the
 *       2-core machine of session 42, 64 members formed in about a minute (joining {@code 2 x cores} at a time) while
 *       128 did not form in 400 s (Hazelcast's own partition assignment timed out) and 256 or 1024 filled the log with
 *       "Could not join cluster".</li>
 *   <li><b>Heap:</b> at least two 8-byte buffers a cell (the live state and the next one), before any checkpoint:
 *       a grid whose buffers alone exceed the JVM's maximum heap cannot run. The generous estimate that only warns
 *       is {@link Runner}'s.</li>
 * </ul>
 * The processes mode has neither limit here: its ranks are JVMs of their own, on one host or many.
 */
public final class EmbeddedLimits {

    /** Embedded members a core can form into a cluster (measured on 2 cores, see the class comment). */
    public static final int RANKS_PER_CORE = 32;

    /** Bytes a cell takes at the least in any run: the live and the next state, one double each. */
    static final long MIN_BYTES_PER_CELL = 2L * Double.BYTES;

    private final int cores;
    private final long maxHeapBytes;

    /** Limits of a machine with {@code cores} cores and a JVM whose heap may grow to {@code maxHeapBytes}. */
    public EmbeddedLimits(int cores, long maxHeapBytes) {
        if (cores < 1 || maxHeapBytes < 1) {
            throw new IllegalArgumentException("cores and heap must be >= 1, were " + cores + " and " + maxHeapBytes);
        }
        this.cores = cores;
        this.maxHeapBytes = maxHeapBytes;
    }

    /** The limits of this JVM on this machine. */
    public static EmbeddedLimits ofThisJvm() {
        return new EmbeddedLimits(Runtime.getRuntime().availableProcessors(), Runtime.getRuntime().maxMemory());
    }

    /** The most ranks (spares included) an embedded run takes here. */
    public int maxRanks() {
        return RANKS_PER_CORE * cores;
    }

    /**
     * Refuses, in one line naming the value and what is allowed, an embedded run that cannot run here; a run in
     * processes mode passes.
     *
     * @throws IllegalArgumentException naming {@code --ranks-grid} / {@code --spares} or {@code --cells}
     */
    public void require(RunConfig config) {
        if (config.mode() != Mode.EMBEDDED) {
            return;
        }
        int members = config.runSpec().memberCount();
        if (members > maxRanks()) {
            String given = config.spares() > 0 ? "--ranks-grid " + grid(config) + " and --spares " + config.spares()
                    + " make" : "--ranks-grid " + grid(config) + " makes";
            throw new IllegalArgumentException(String.format(Locale.ROOT, "%s %d ranks: embedded mode"
                    + " runs at most %d here (%d a core, every rank a Hazelcast member in this one JVM); use --mode"
                    + " processes (on several --hosts), or dfr simulate past real scale", given, members,
                    maxRanks(), RANKS_PER_CORE));
        }
        long needed = MIN_BYTES_PER_CELL * config.cellCount();
        if (needed > maxHeapBytes) {
            throw new IllegalArgumentException(String.format(Locale.ROOT, "--cells %s needs at least %s of heap in"
                    + " embedded mode (two 8-byte states a cell, before any checkpoint) and this JVM may use %s: give"
                    + " fewer --cells, more heap (DFR_JAVA_OPTS=\"-Xmx...\"), or --mode processes (a heap per rank)",
                    KernelProblem.join(config.cells()), bytes(needed), bytes(maxHeapBytes)));
        }
    }

    private static String grid(RunConfig config) {
        return KernelProblem.join(config.ranksGrid());
    }


    private static String bytes(long b) {
        double gib = b / (double) (1L << 30);
        return gib >= 1 ? String.format(Locale.ROOT, "%.1f GiB", gib)
                : String.format(Locale.ROOT, "%d MiB", b >> 20);
    }
}
