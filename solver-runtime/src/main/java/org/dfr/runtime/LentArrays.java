package org.dfr.runtime;

import java.util.IdentityHashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Checkpoint states lent, not copied, to holder ranks in the writer's own JVM (embedded mode), and when their
 * writer may write into them again.
 *
 * <p>A writer's local copy of a checkpoint is one of its partition's state buffers, which nothing writes while
 * the checkpoint keeps it ({@link DoubleBuffer#hold}). A holder in the same JVM keeps that array itself as its copy
 * ({@link DataPlaneReplicas}, {@link net.MessageKind#REPLICA_LENT}) instead of a copy of it: two holders per state
 * made every checkpoint copy each rank's state twice, about three times the half iteration a checkpoint may cost
 * (docs/bench.md, session 23). The price is this bookkeeping: the writer gives the array back to its double buffer,
 * which writes the next states into it, only when its own checkpoint dropped it ({@link #whenFree}) <em>and</em>
 * every holder that took it dropped its copy ({@link #take}, {@link #giveBack}). A holder's copy thus survives the
 * writer's death, as a copy in another process does, and is never written under it.
 *
 * <p>The writer counts as a holder while it replicates the array ({@link CheckpointStore#replicate}): a checkpoint
 * a recovery abandons meanwhile is then not freed before the holders it reached have taken it.
 *
 * <p>Keyed by the array's identity, for the whole JVM: holders and writers of one run meet here as their mailboxes
 * meet in {@link net.DataPlane}. An array is listed only while a holder keeps it, so nothing stays behind once every
 * holder dropped its copies; a holder that is killed drops its copies when it closes.
 */
final class LentArrays {

    /** The holders keeping one array, and what its writer does once none does and it dropped the array too. */
    private static final class Loan {
        int holders;
        Runnable whenFree;
    }

    private static final Map<double[], Loan> LOANS = new IdentityHashMap<>();

    private LentArrays() {
    }

    /** A holder keeps {@code array} as its copy: its writer must not write into it before {@link #giveBack}. */
    static void take(double[] array) {
        synchronized (LOANS) {
            LOANS.computeIfAbsent(array, a -> new Loan()).holders++;
        }
    }

    /**
     * A holder dropped its copy {@code array}: when it was the last and the writer dropped it already, the writer's
     * {@link #whenFree} runs now, on this thread, under this registry's lock (see {@link #hold}).
     */
    static void giveBack(double[] array) {
        synchronized (LOANS) {
            Loan loan = LOANS.get(array);
            if (loan == null) {
                return;
            }
            if (--loan.holders == 0) {
                LOANS.remove(array);
                if (loan.whenFree != null) {
                    loan.whenFree.run();
                }
            }
        }
    }

    /**
     * The writer dropped {@code array}: runs {@code free} (which lets it be written again) now when no holder keeps
     * it, else when the last holder gives it back. {@code free} runs under this registry's lock: it must not call
     * back into it nor take a lock that is held while calling into it (a double buffer's is fine).
     */
    static void whenFree(double[] array, Runnable free) {
        synchronized (LOANS) {
            Loan loan = LOANS.get(array);
            if (loan != null) {
                loan.whenFree = free;
            } else {
                free.run();
            }
        }
    }

    /**
     * Makes an array a checkpoint's local copy ({@code hold}, which returns it) and cancels its pending
     * {@link #whenFree}: an array dropped as an older checkpoint's copy (a checkpoint written anew from the same
     * buffer) that its holders did not give back yet must not be freed when they do. Both under this registry's
     * lock, so that a last holder's give-back cannot free the array between the two.
     */
    static double[] hold(Supplier<double[]> hold) {
        synchronized (LOANS) {
            double[] array = hold.get();
            Loan loan = LOANS.get(array);
            if (loan != null) {
                loan.whenFree = null;
            }
            return array;
        }
    }

    /** How many holders keep {@code array} now. */
    static int holders(double[] array) {
        synchronized (LOANS) {
            Loan loan = LOANS.get(array);
            return loan == null ? 0 : loan.holders;
        }
    }
}
