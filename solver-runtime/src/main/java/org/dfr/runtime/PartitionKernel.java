package org.dfr.runtime;

import org.dfr.analysis.PartitionDependencies;

/**
 * A partitioned iterative solver as the runtime sees it. The runtime owns ranks, messages,
 * buffers, checkpoints and recovery; the kernel owns the numbers.
 *
 * <p>A partition's state is one {@code double[]} laid out as the kernel likes (for a stencil: the
 * block plus a ghost frame that holds the halos received from its inputs and any fixed boundary).
 * The runtime keeps two buffers per partition and, per iteration {@code i+1}:
 * <ol>
 *   <li>for every input {@code q != p} of {@code p}: {@code packHalo(q, state_q, p, msg)} on the owner of
 *       {@code q}, ships {@code msg}, then {@code unpackHalo(p, state_p, q, msg)} on the owner of {@code p};</li>
 *   <li>{@code update(p, state_p, next_p)} computes iteration {@code i+1} into the other buffer and returns
 *       this partition's contribution to the global residual;</li>
 *   <li>the residual contributions are summed over all partitions and the buffers swap.</li>
 * </ol>
 * A checkpoint of iteration {@code c} is the buffer state {@code c} was computed into; its ghost frame
 * is not part of it: before computing {@code c+1} from a checkpoint the runtime unpacks the halos of
 * {@code c} into it again.
 *
 * <p>The runtime may hand {@code update} any buffer of the partition that is not the input (a third
 * one while a checkpoint holds one, see {@link DoubleBuffer}), so {@code update} must not depend on
 * what {@code out} held before the call: the cells it never writes, and that no halo fills, keep the values
 * {@link #initialState} gave them, which every buffer of the partition shares.
 *
 * <p>Implementations must be deterministic and thread-safe for distinct partitions: the runtime
 * may call them concurrently for different partitions.
 */
public interface PartitionKernel {

    /** The dependency function {@code R(p)} this kernel declares. */
    PartitionDependencies dependencies();

    /** Number of partitions; equals {@code dependencies().partitionCount()}. */
    default int partitionCount() {
        return dependencies().partitionCount();
    }

    /**
     * A new state buffer for {@code partition} holding its initial state (iteration 0), including
     * any fixed boundary values in the ghost frame. Called once per buffer (both buffers of the
     * double-buffering pair start from it), so fixed boundary values never need rewriting. It returns the same
     * values at every call: a recovery that finds no copy of checkpoint 0 left rebuilds it from here.
     */
    double[] initialState(int partition);

    /** Length of the halo message that partition {@code from} sends to partition {@code to}. */
    int haloLength(int from, int to);

    /** Writes into {@code out} (length {@link #haloLength}) what {@code to} needs from {@code from}'s state. */
    void packHalo(int from, double[] fromState, int to, double[] out);

    /** Stores a halo received from {@code from} into {@code toState}'s ghost frame. */
    void unpackHalo(int to, double[] toState, int from, double[] in);

    /**
     * Computes the next iteration of {@code partition} from {@code in} (whose ghost frame is filled)
     * into {@code out}, touching only the cells the partition owns. Returns this partition's
     * contribution to the global residual.
     */
    double update(int partition, double[] in, double[] out);

    /** Number of cell updates one call of {@link #update} performs (for throughput figures). */
    long cellsOf(int partition);
}
