package org.dfr.simulator;

import java.util.SplittableRandom;
import org.apache.commons.math3.special.Gamma;

/**
 * One renewal clock per node with Weibull inter-arrival times of the given mean: a binary min-heap of the
 * nodes' next failure times. A failed node is replaced by a fresh one, which draws its next failure from the
 * failure time. Pausing restarts the clocks that would have fired during the pause from its end.
 */
final class WeibullArrivals implements FailureArrivals {

    private final SplittableRandom random;
    private final double scale;
    private final double inverseShape;
    private final double[] time;
    private final int[] node;
    private final int size;

    WeibullArrivals(int nodes, double meanSeconds, double shape, SplittableRandom random) {
        this.random = random;
        this.inverseShape = 1 / shape;
        this.scale = meanSeconds / Gamma.gamma(1 + inverseShape);
        this.size = nodes;
        this.time = new double[nodes];
        this.node = new int[nodes];
        for (int i = 0; i < nodes; i++) {
            time[i] = sample();
            node[i] = i;
        }
        for (int i = nodes / 2 - 1; i >= 0; i--) {
            siftDown(i);
        }
    }

    private double sample() {
        return scale * Math.pow(-Math.log(1 - random.nextDouble()), inverseShape);
    }

    @Override
    public double peekTime() {
        return time[0];
    }

    @Override
    public int peekNode() {
        return node[0];
    }

    @Override
    public void pop() {
        time[0] += sample();
        siftDown(0);
    }

    @Override
    public void pauseUntil(double until) {
        while (time[0] < until) {
            time[0] = until + sample();
            siftDown(0);
        }
    }

    private void siftDown(int i) {
        double t = time[i];
        int v = node[i];
        while (true) {
            int child = 2 * i + 1;
            if (child >= size) {
                break;
            }
            if (child + 1 < size && time[child + 1] < time[child]) {
                child++;
            }
            if (time[child] >= t) {
                break;
            }
            time[i] = time[child];
            node[i] = node[child];
            i = child;
        }
        time[i] = t;
        node[i] = v;
    }
}
