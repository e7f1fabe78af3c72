package org.dfr.tests;

import org.dfr.analysis.PartitionDependencies;
import org.dfr.runtime.PartitionKernel;

/** A kernel that does what {@code delegate} does, for tests that change one of its methods (to throw, to count). */
class DelegatingKernel implements PartitionKernel {

    private final PartitionKernel delegate;

    DelegatingKernel(PartitionKernel delegate) {
        this.delegate = delegate;
    }

    @Override
    public PartitionDependencies dependencies() {
        return delegate.dependencies();
    }

    @Override
    public double[] initialState(int partition) {
        return delegate.initialState(partition);
    }

    @Override
    public int haloLength(int from, int to) {
        return delegate.haloLength(from, to);
    }

    @Override
    public void packHalo(int from, double[] fromState, int to, double[] out) {
        delegate.packHalo(from, fromState, to, out);
    }

    @Override
    public void unpackHalo(int to, double[] toState, int from, double[] in) {
        delegate.unpackHalo(to, toState, from, in);
    }

    @Override
    public double update(int partition, double[] in, double[] out) {
        return delegate.update(partition, in, out);
    }

    @Override
    public long cellsOf(int partition) {
        return delegate.cellsOf(partition);
    }
}
