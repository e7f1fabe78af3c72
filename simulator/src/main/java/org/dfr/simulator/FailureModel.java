package org.dfr.simulator;

/**
 * When nodes fail, and what happens around a failure.
 *
 * <p>Every node fails independently with inter-arrival times of mean {@code nodeMtbfSeconds}, exponential (the
 * system then fails as a Poisson process of rate {@code nodes / MTBF}) or Weibull. A node holds
 * {@code partitionsPerNode} consecutive partitions ({@code p / partitionsPerNode} is its node) and loses all
 * of them. With probability {@code correlatedFailureProbability} a failure takes a second, uniformly chosen
 * node down at the same instant. Failures less than {@code detectionSeconds + replacementSeconds} apart join
 * one recovery (simultaneous failures). A failure during a recovery either restarts that recovery with the
 * union of the lost partitions ({@code failuresDuringRecovery}) or, by default as in the paper, does not
 * happen: the failure clocks pause during recoveries.
 *
 * @param nodeMtbfSeconds               mean time between failures of one node, s (default 100 h = 360000 s)
 * @param distribution                  inter-arrival distribution (default exponential)
 * @param weibullShape                  Weibull shape k &gt; 0, used only for {@link FailureDistribution#WEIBULL} (default 0.7)
 * @param detectionSeconds              from a death to the recovery decision, s (default 0)
 * @param replacementSeconds            to bring up the replacement, s (default 0)
 * @param correlatedFailureProbability  chance a failure also kills a second node, 0..1 (default 0)
 * @param failuresDuringRecovery        whether failures can strike during a recovery (default false)
 * @param partitionsPerNode             partitions a node holds, at least 1 (default 1)
 * @param maxFailures                   the run stops, marked incomplete, after this many failures (default 10^7)
 */
public record FailureModel(double nodeMtbfSeconds, FailureDistribution distribution, double weibullShape,
                           double detectionSeconds, double replacementSeconds, double correlatedFailureProbability,
                           boolean failuresDuringRecovery, int partitionsPerNode, long maxFailures) {

    /** 100 h per node, hours to seconds. */
    public static final double PAPER_MTBF_SECONDS = 100 * 3600.0;

    /** The paper's setting: exponential, MTBF 100 h per node, instant detection and replacement, one partition per node. */
    public static final FailureModel PAPER = new FailureModel(PAPER_MTBF_SECONDS, FailureDistribution.EXPONENTIAL, 0.7,
            0, 0, 0, false, 1, 10_000_000L);

    /** @throws IllegalArgumentException naming the bad value */
    public FailureModel {
        Checks.positive("nodeMtbfSeconds", nodeMtbfSeconds);
        if (distribution == null) {
            throw new IllegalArgumentException("distribution must be exponential or weibull but was null");
        }
        Checks.positive("weibullShape", weibullShape);
        Checks.nonNegative("detectionSeconds", detectionSeconds);
        Checks.nonNegative("replacementSeconds", replacementSeconds);
        Checks.probability("correlatedFailureProbability", correlatedFailureProbability);
        Checks.atLeast("partitionsPerNode", partitionsPerNode, 1);
        Checks.atLeast("maxFailures", maxFailures, 0);
    }

    /** A copy with another node MTBF. */
    public FailureModel withNodeMtbfSeconds(double seconds) {
        return new FailureModel(seconds, distribution, weibullShape, detectionSeconds, replacementSeconds,
                correlatedFailureProbability, failuresDuringRecovery, partitionsPerNode, maxFailures);
    }

    /** A copy that lets failures strike during recoveries (or not). */
    public FailureModel withFailuresDuringRecovery(boolean enabled) {
        return new FailureModel(nodeMtbfSeconds, distribution, weibullShape, detectionSeconds, replacementSeconds,
                correlatedFailureProbability, enabled, partitionsPerNode, maxFailures);
    }

    /** A copy with other detection and replacement times. */
    public FailureModel withDetectionAndReplacement(double detection, double replacement) {
        return new FailureModel(nodeMtbfSeconds, distribution, weibullShape, detection, replacement,
                correlatedFailureProbability, failuresDuringRecovery, partitionsPerNode, maxFailures);
    }

    /** A copy with another distribution (and Weibull shape). */
    public FailureModel withDistribution(FailureDistribution d, double shape) {
        return new FailureModel(nodeMtbfSeconds, d, shape, detectionSeconds, replacementSeconds,
                correlatedFailureProbability, failuresDuringRecovery, partitionsPerNode, maxFailures);
    }

    /** A copy with another probability of a second, simultaneous node failure. */
    public FailureModel withCorrelatedFailureProbability(double probability) {
        return new FailureModel(nodeMtbfSeconds, distribution, weibullShape, detectionSeconds, replacementSeconds,
                probability, failuresDuringRecovery, partitionsPerNode, maxFailures);
    }

    /** A copy with another number of partitions per node. */
    public FailureModel withPartitionsPerNode(int count) {
        return new FailureModel(nodeMtbfSeconds, distribution, weibullShape, detectionSeconds, replacementSeconds,
                correlatedFailureProbability, failuresDuringRecovery, count, maxFailures);
    }

    /** A copy that stops a run, counted as incomplete, after {@code count} failures. */
    public FailureModel withMaxFailures(long count) {
        return new FailureModel(nodeMtbfSeconds, distribution, weibullShape, detectionSeconds, replacementSeconds,
                correlatedFailureProbability, failuresDuringRecovery, partitionsPerNode, count);
    }
}
