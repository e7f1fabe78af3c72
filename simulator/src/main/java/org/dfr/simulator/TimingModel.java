package org.dfr.simulator;

/**
 * How long tasks, halo exchanges, checkpoints and message logging take.
 *
 * <p>A task (one partition, one iteration) computes for {@code taskSeconds}, or, with {@code taskJitter > 0},
 * for {@code taskSeconds x (1 + taskJitter x u)} with {@code u} uniform in {@code [-1, 1)}, drawn from the
 * seed, the partition and the iteration (so every strategy, and a recomputation, sees the same duration for
 * the same task). A halo from another partition arrives {@link #haloSeconds()} after its sender finished:
 * latency plus the whole partition over the link, as the paper models it. A buddy checkpoint moves the
 * partition over the link once ({@link #checkpointSeconds()}); the replacement of a lost partition reads it
 * back at the same cost; survivors reload their local copy for free. Under message logging every sent
 * message is also copied into the sender's log at {@code logBytesPerSecond}.
 *
 * @param taskSeconds             compute time of one task, s (default 10)
 * @param taskJitter              relative spread of task times, 0 (constant, default) .. below 1
 * @param partitionBytes          bytes of one partition, moved by every halo exchange and checkpoint (default 1.25e8 B,
 *                                1 s over the default link)
 * @param linkBitsPerSecond       link bandwidth, bit/s (default 1e9)
 * @param latencySeconds          per-message latency, s (default 50e-6)
 * @param logBytesPerSecond       memory bandwidth of the message log copy, B/s (default 1e10)
 */
public record TimingModel(double taskSeconds, double taskJitter, double partitionBytes, double linkBitsPerSecond,
                          double latencySeconds, double logBytesPerSecond) {

    /** The paper's setting: 10 s tasks, 1 Gbit/s, 50 us; partitions of 125 MB; logs copied at 10 GB/s. */
    public static final TimingModel PAPER = new TimingModel(10.0, 0.0, 1.25e8, 1e9, 50e-6, 1e10);

    /** @throws IllegalArgumentException naming the bad value */
    public TimingModel {
        Checks.positive("taskSeconds", taskSeconds);
        if (!(taskJitter >= 0 && taskJitter < 1)) {
            throw new IllegalArgumentException("taskJitter must be in [0, 1) but was " + taskJitter);
        }
        Checks.nonNegative("partitionBytes", partitionBytes);
        Checks.positive("linkBitsPerSecond", linkBitsPerSecond);
        Checks.nonNegative("latencySeconds", latencySeconds);
        Checks.positive("logBytesPerSecond", logBytesPerSecond);
    }

    /** Seconds from a neighbour finishing an iteration to its halo being usable: latency + bytes over the link. */
    public double haloSeconds() {
        return latencySeconds + partitionBytes * 8 / linkBitsPerSecond;
    }

    /** Seconds a partition spends writing its buddy checkpoint (and a replacement reading it back). */
    public double checkpointSeconds() {
        return latencySeconds + partitionBytes * 8 / linkBitsPerSecond;
    }

    /** Seconds to copy one sent message into the sender's log (message-log strategy only). */
    public double logSecondsPerMessage() {
        return partitionBytes / logBytesPerSecond;
    }

    /** Mean length of one failure-free iteration on a partition with neighbours: task + halo. */
    public double iterationSeconds() {
        return taskSeconds + haloSeconds();
    }

    /** A copy with another task time. */
    public TimingModel withTaskSeconds(double seconds) {
        return new TimingModel(seconds, taskJitter, partitionBytes, linkBitsPerSecond, latencySeconds, logBytesPerSecond);
    }

    /** A copy with another partition size. */
    public TimingModel withPartitionBytes(double bytes) {
        return new TimingModel(taskSeconds, taskJitter, bytes, linkBitsPerSecond, latencySeconds, logBytesPerSecond);
    }

    /** A copy with another task jitter. */
    public TimingModel withTaskJitter(double jitter) {
        return new TimingModel(taskSeconds, jitter, partitionBytes, linkBitsPerSecond, latencySeconds, logBytesPerSecond);
    }
}
