package org.dfr.recovery;

import java.util.Objects;
import java.util.function.LongConsumer;
import org.dfr.analysis.ConeAnalyzer;
import org.dfr.runtime.ClusterSettings;
import org.dfr.runtime.EmbeddedCluster;
import org.dfr.runtime.FailureHandler;
import org.dfr.runtime.IterationHook;
import org.dfr.runtime.PartitionKernel;
import org.dfr.runtime.RunOutcome;
import org.dfr.runtime.RunSpec;

/**
 * A run with failures and recovery, assembled from a kernel, a {@link RunSpec}, a strategy and a
 * {@link FaultPlan}. Fluent; the defaults are data-flow rollback, no faults, no frequency capping.
 */
public final class ResilientRun {

    private final PartitionKernel kernel;
    private final RunSpec spec;
    private Strategy strategy = Strategy.DFR;
    private FaultPlan faults = FaultPlan.NONE;
    private IdleRankListener idleListener = IdleRankListener.NONE;
    private ClusterSettings settings = new ClusterSettings();

    public ResilientRun(PartitionKernel kernel, RunSpec spec) {
        this.kernel = Objects.requireNonNull(kernel);
        this.spec = Objects.requireNonNull(spec);
    }

    public ResilientRun strategy(Strategy value) {
        this.strategy = Objects.requireNonNull(value);
        return this;
    }

    public ResilientRun faults(FaultPlan value) {
        this.faults = Objects.requireNonNull(value);
        return this;
    }

    public ResilientRun idleListener(IdleRankListener value) {
        this.idleListener = Objects.requireNonNull(value);
        return this;
    }

    public ResilientRun settings(ClusterSettings value) {
        this.settings = Objects.requireNonNull(value);
        return this;
    }

    public Strategy strategy() {
        return strategy;
    }

    /** The failure handler every rank of this run uses. */
    public FailureHandler failureHandler() {
        RollbackStrategy rollback = strategy == Strategy.GLOBAL
                ? new GlobalRollback()
                : new DataFlowRollback(new ConeAnalyzer(kernel.dependencies()));
        return new RecoveryProtocol(rollback, idleListener);
    }

    /** The hook that injects the planned faults with {@code killer}. */
    public IterationHook faultInjector(RankKiller killer) {
        return faults.kills().isEmpty() && faults.failDuringRecovery().isEmpty()
                ? IterationHook.NONE
                : new FaultInjector(faults, killer, spec.iterations(), spec.partitionCount());
    }

    /** Runs every rank in this JVM; dead ranks are terminated members. */
    public RunOutcome runEmbedded() {
        return runEmbedded(nanos -> { });
    }

    /** {@link #runEmbedded()}, telling {@code loopEntered} when the ranks start ({@link EmbeddedCluster#loopEntered}). */
    public RunOutcome runEmbedded(LongConsumer loopEntered) {
        validateFaults();
        return new EmbeddedCluster(spec, kernel, settings, failureHandler(), faultInjector(RankKiller.TERMINATE_MEMBER))
                .loopEntered(loopEntered).run();
    }

    /** Rejects faults that name ranks or iterations the run does not have. */
    public void validateFaults() {
        for (FaultPlan.Kill k : faults.kills()) {
            if (k.rank() >= spec.memberCount()) {
                throw new IllegalArgumentException("cannot fail rank " + k.rank() + ": ranks are 0.."
                        + (spec.memberCount() - 1));
            }
            if (k.iteration() > spec.iterations()) {
                throw new IllegalArgumentException("cannot fail at iteration " + k.iteration() + ": iterations are 1.."
                        + spec.iterations());
            }
        }
        for (int r : faults.failDuringRecovery()) {
            if (r >= spec.memberCount()) {
                throw new IllegalArgumentException("cannot fail rank " + r + " during recovery: ranks are 0.."
                        + (spec.memberCount() - 1));
            }
        }
    }
}
