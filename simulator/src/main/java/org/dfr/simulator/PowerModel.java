package org.dfr.simulator;

/**
 * Power drawn by one node (one partition per node) in each state, and what recovery may cap.
 *
 * <p>A node computing (a task, a checkpoint write, a checkpoint reload, a log copy) draws {@code busyWatts}.
 * A node waiting draws {@code idleWatts} (uncapped; by default equal to the busy power, as a rank spinning in
 * its communication library does), except while it is idle during a recovery it takes no part in: then,
 * with {@code capIdleDuringRecovery}, its frequency is capped and it draws {@code cappedIdleWatts}. With
 * {@code taskJoules > 0} every computed task costs that many joules instead of {@code busyWatts x duration}
 * (the paper quotes 500 J per task as an alternative accounting).
 *
 * @param busyWatts             power while computing, W (default 125)
 * @param idleWatts             power while waiting, uncapped, W (default 125)
 * @param cappedIdleWatts       power while idle and capped during a recovery, W (default 110)
 * @param taskJoules            fixed energy per task, J; 0 = busy power x task time (default 0)
 * @param capIdleDuringRecovery whether partitions outside the recovery are capped (default true)
 */
public record PowerModel(double busyWatts, double idleWatts, double cappedIdleWatts, double taskJoules,
                         boolean capIdleDuringRecovery) {

    /** The paper's powers: 125 W computing, 110 W capped idle; uncapped waiting at 125 W. */
    public static final PowerModel PAPER = new PowerModel(125, 125, 110, 0, true);

    /** @throws IllegalArgumentException naming the bad value */
    public PowerModel {
        Checks.nonNegative("busyWatts", busyWatts);
        Checks.nonNegative("idleWatts", idleWatts);
        Checks.nonNegative("cappedIdleWatts", cappedIdleWatts);
        Checks.nonNegative("taskJoules", taskJoules);
    }

    /** A copy with a fixed energy per task (0 = busy power x duration). */
    public PowerModel withTaskJoules(double joules) {
        return new PowerModel(busyWatts, idleWatts, cappedIdleWatts, joules, capIdleDuringRecovery);
    }

    /** A copy with another uncapped idle power. */
    public PowerModel withIdleWatts(double watts) {
        return new PowerModel(busyWatts, watts, cappedIdleWatts, taskJoules, capIdleDuringRecovery);
    }
}
