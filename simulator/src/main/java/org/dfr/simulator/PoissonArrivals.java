package org.dfr.simulator;

import java.util.SplittableRandom;

/**
 * Exponential node lifetimes: the superposition of {@code nodes} independent exponential clocks is a Poisson
 * process of rate {@code nodes / MTBF} whose failing node is uniform. Memoryless, so pausing is exact.
 */
final class PoissonArrivals implements FailureArrivals {

    private final SplittableRandom random;
    private final int nodes;
    private final double meanGap;
    private double nextTime;
    private int nextNode;

    PoissonArrivals(int nodes, double nodeMtbfSeconds, SplittableRandom random) {
        this.random = random;
        this.nodes = nodes;
        this.meanGap = nodeMtbfSeconds / nodes;
        draw(0);
    }

    private void draw(double from) {
        nextTime = from - meanGap * Math.log(1 - random.nextDouble());
        nextNode = random.nextInt(nodes);
    }

    @Override
    public double peekTime() {
        return nextTime;
    }

    @Override
    public int peekNode() {
        return nextNode;
    }

    @Override
    public void pop() {
        draw(nextTime);
    }

    @Override
    public void pauseUntil(double time) {
        if (nextTime < time) {
            draw(time);
        }
    }
}
