package org.dfr.simulator;

/**
 * Failure events in time order: the earliest pending one is {@link #peekTime()} on {@link #peekNode()}.
 * Implementations are seeded and single-threaded.
 */
interface FailureArrivals {

    /** Time of the next failure, {@code +Infinity} when none is pending. */
    double peekTime();

    /** Node of the next failure. */
    int peekNode();

    /** Consumes the next failure; its node (a fresh replacement) draws its next failure from that time. */
    void pop();

    /** Failure clocks paused until {@code time}: no failure strikes before it. */
    void pauseUntil(double time);

    /** None at all. */
    FailureArrivals NONE = new FailureArrivals() {
        @Override
        public double peekTime() {
            return Double.POSITIVE_INFINITY;
        }

        @Override
        public int peekNode() {
            return -1;
        }

        @Override
        public void pop() {
            throw new IllegalStateException("no failure is pending");
        }

        @Override
        public void pauseUntil(double time) {
            // nothing pending
        }
    };
}
