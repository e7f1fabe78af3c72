package org.dfr.simulator;

/** How the time between two failures of one node is distributed. */
public enum FailureDistribution {
    /** Exponential with mean = node MTBF (memoryless; the paper's model). */
    EXPONENTIAL,
    /** Weibull with the given shape, scaled so its mean = node MTBF (shape below 1: infant mortality). */
    WEIBULL
}
