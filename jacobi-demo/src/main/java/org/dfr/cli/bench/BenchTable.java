package org.dfr.cli.bench;

import java.io.PrintWriter;
import java.util.Locale;
import org.dfr.cli.options.CheckpointCopiesMixin;
import org.dfr.runtime.kernel.KernelProblem;

/** Prints a {@link BenchReport} as the text table of {@code dfr bench}. */
public final class BenchTable {

    private static final String ROW = "%-22s %14s %9s %8s %5s %12s %7s %9s%n";

    private BenchTable() {
    }

    /** Writes the whole report to {@code out}. */
    public static void print(BenchReport r, PrintWriter out) {
        out.printf(Locale.ROOT, "grid %s cells, %d timed iterations per row%n",
                KernelProblem.join(r.cells()), r.iterations());
        out.println("kernel: " + r.kernel());
        out.println("runtime rows: RunReport.cellUpdatesPerSecond over loopMillis, the iteration loop only"
                + " (cluster start, initial checkpoint and result collection excluded); no checkpoint inside the loop");
        out.println();
        out.printf(Locale.ROOT, ROW, "configuration", "cell updates/s", "ratio", "target", "met?", "C+MPI ref", "vs MPI", "of bound");
        for (ThroughputRow row : r.rows()) {
            if (row.cellUpdatesPerSecond() == null) {
                out.printf(Locale.ROOT, "%-22s %s%n", row.configuration(), row.note());
                continue;
            }
            Double mpi = row.mpiCellUpdatesPerSecond();
            out.printf(Locale.ROOT, ROW, row.configuration(), sci(row.cellUpdatesPerSecond()),
                    String.format(Locale.ROOT, "%.2fx", row.ratioToSequential()),
                    row.targetRatio() == null ? "-" : String.format(Locale.ROOT, ">=%.1fx", row.targetRatio()),
                    row.met() == null ? "-" : row.met() ? "yes" : "NO",
                    mpi == null ? "-" : sci(mpi),
                    mpi == null ? "-" : String.format(Locale.ROOT, "%.2fx", row.cellUpdatesPerSecond() / mpi),
                    row.fractionOfBandwidthBound() == null ? "-"
                            : String.format(Locale.ROOT, "%.2f", row.fractionOfBandwidthBound()));
        }
        out.println();
        for (BandwidthBound b : r.bandwidthBounds()) {
            out.printf(Locale.ROOT, "memory bandwidth (STREAM-like copy, %d thread%s): %.2f GB/s -> bound %s cell"
                    + " updates/s (16 bytes per update)%n", b.threads(), b.threads() == 1 ? "" : "s",
                    b.bytesPerSecond() / 1e9, sci(b.boundCellUpdatesPerSecond()));
        }
        // on a shared host the bandwidth several threads get moves with the neighbours' load (25-80 GB/s
        // for two threads here within 20 minutes), so a row can exceed a bound measured minutes before
        out.println("of bound: a row's cell updates/s over the bound of min(ranks, cores) threads, measured once"
                + " before the rows (above 1.00: the machine gave the row more bandwidth than the copy)");
        out.printf(Locale.ROOT, "sequential kernel / bandwidth bound: %.2f (target >= %.1f: %s)%n",
                r.sequentialFractionOfBound(), r.bandwidthTarget(), r.bandwidthTargetMet() ? "met" : "NOT met");
        CheckpointCost c = r.checkpoint();
        if (c == null) {
            return;
        }
        if (c.note() != null) {
            out.printf(Locale.ROOT, "checkpoint (%s): %s%n", c.layout(), c.note());
            return;
        }
        out.printf(Locale.ROOT, "checkpoint of the whole grid on %s (embedded): one iteration takes %.1f ms%n",
                c.layout(), c.iterationMillis());
        out.printf(Locale.ROOT, "  loop overhead per checkpoint: %.1f ms = %.2f iterations"
                        + " (%d checkpoints in the loop, every %d iterations, commit lag %d, %s)%n",
                c.overheadMillisEach(), c.overheadFraction(), c.checkpointsInLoop(), c.checkpointEvery(),
                c.commitLagIterations(), CheckpointCopiesMixin.describe(c.checkpointBackups(), c.checkpointReplication()));
        out.printf(Locale.ROOT, "  checkpoint write as the ranks time it: %.1f ms = %.2f iterations%n",
                c.writeMillisEach(), c.writeFraction());
    }

    static String sci(double v) {
        return String.format(Locale.ROOT, "%.2e", v);
    }
}
