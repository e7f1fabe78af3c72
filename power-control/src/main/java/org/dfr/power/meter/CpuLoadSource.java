package org.dfr.power.meter;

/** The busy fraction of all CPUs of the host between two calls. */
@FunctionalInterface
public interface CpuLoadSource {

    /** @return the busy fraction, 0..1, since the previous call (or since creation) */
    double loadSinceLastCall();
}
