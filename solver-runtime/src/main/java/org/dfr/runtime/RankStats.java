package org.dfr.runtime;

/**
 * What one rank did, published at the end of a run (instrumented counts, not estimates).
 *
 * @param kernelUpdates every partition update this rank performed
 * @param kernelUpdatesDuringRecovery updates performed between a failure and the resume barrier
 * @param droppedStaleMessages messages of an abandoned epoch that were dropped
 * @param loopMicros time from the first iteration's start to the last one's end (recoveries included)
 * @param checkpointMicros time the rank's own thread spent writing checkpoints: the local copies (the
 *        replicated copies are written by its replication thread)
 * @param sharedMemoryCopies checkpoint copies written through shared memory ({@link SharedMemoryCopies})
 * @param lentCopies checkpoint copies lent to holders in the same JVM, not copied ({@link LentArrays})
 */
public record RankStats(int rank, long kernelUpdates, long kernelUpdatesDuringRecovery, long droppedStaleMessages,
                        long loopMicros, long checkpointMicros, int checkpoints, long sharedMemoryCopies,
                        long lentCopies) {

    /** One line of text, for the stats map. */
    public String encode() {
        return rank + "," + kernelUpdates + "," + kernelUpdatesDuringRecovery + "," + droppedStaleMessages + ","
                + loopMicros + "," + checkpointMicros + "," + checkpoints + "," + sharedMemoryCopies + "," + lentCopies;
    }

    public static RankStats decode(String line) {
        String[] f = line.split(",");
        return new RankStats(Integer.parseInt(f[0]), Long.parseLong(f[1]), Long.parseLong(f[2]), Long.parseLong(f[3]),
                Long.parseLong(f[4]), Long.parseLong(f[5]), Integer.parseInt(f[6]),
                f.length > 7 ? Long.parseLong(f[7]) : 0, f.length > 8 ? Long.parseLong(f[8]) : 0);
    }
}
