package org.dfr.runtime;

import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.DoubleBuffer;

/**
 * A checkpoint copy a holder keeps as a read-only mapping of the writer's file in shared memory
 * ({@link SharedMemoryCopies}): nothing is copied when it is taken, only when it is read in a recovery.
 *
 * <p>The writer never rewrites a file while a holder it told of the file holds it, and before it writes any
 * state into a file it clears the id in the header. A read copies the state out and then checks the header once
 * more: a copy whose file was written again meanwhile (a holder the writer gave up on, which took the file
 * late) reads as gone, never as another checkpoint's state. The mapping outlives the file's name: the copy of
 * a writer killed with SIGKILL stays readable after its files are deleted, until the holder drops it.
 */
final class SharedMemoryCopy {

    private final ByteBuffer map;
    private final int id;
    private final int iteration;
    private final int partition;
    private final int length;

    SharedMemoryCopy(ByteBuffer map, int id, int iteration, int partition, int length) {
        this.map = map.duplicate().order(ByteOrder.nativeOrder());
        this.id = id;
        this.iteration = iteration;
        this.partition = partition;
        this.length = length;
    }

    /** The state's length in doubles. */
    int length() {
        return length;
    }

    /** Whether the file still holds this copy. */
    boolean intact() {
        return SharedMemoryFiles.heads(map, id, iteration, partition, length);
    }

    /** The state as one new array; null when the file no longer holds it. */
    double[] read() {
        double[] state = new double[length];
        DoubleBuffer in = SharedMemoryFiles.doubles(map);
        try {
            in.get(state);
        } catch (InternalError e) {
            return null; // the file was truncated under the mapping
        }
        VarHandle.loadLoadFence(); // the header is read after the state
        return intact() ? state : null;
    }

    /** The state in new slices of at most {@code sliceDoubles} doubles; null when the file no longer holds it. */
    double[][] readSlices(int sliceDoubles) {
        double[][] slices = new double[(length + sliceDoubles - 1) / sliceDoubles][];
        DoubleBuffer in = SharedMemoryFiles.doubles(map);
        try {
            for (int i = 0; i < slices.length; i++) {
                slices[i] = new double[Math.min(sliceDoubles, length - i * sliceDoubles)];
                in.get(slices[i]);
            }
        } catch (InternalError e) {
            return null;
        }
        VarHandle.loadLoadFence();
        return intact() ? slices : null;
    }
}
