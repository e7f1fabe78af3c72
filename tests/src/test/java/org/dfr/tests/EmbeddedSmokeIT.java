package org.dfr.tests;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import org.dfr.jacobi.BlockDecomposition;
import org.dfr.jacobi.FieldDigest;
import org.dfr.jacobi.JacobiKernel;
import org.dfr.jacobi.JacobiProblem;
import org.dfr.jacobi.SequentialJacobi;
import org.dfr.recovery.FaultPlan;
import org.dfr.recovery.ResilientRun;
import org.dfr.recovery.Strategy;
import org.dfr.runtime.RunOutcome;
import org.dfr.runtime.RunSpec;
import org.junit.jupiter.api.Test;

class EmbeddedSmokeIT {

    @Test
    void when_paperCase_then_digestMatches() {
        JacobiProblem problem = new JacobiProblem(64, 48);
        BlockDecomposition dec = new BlockDecomposition(problem, 2, 4);
        SequentialJacobi seq = new SequentialJacobi(problem);
        seq.iterate(10);
        for (Strategy s : Strategy.values()) {
            RunOutcome out = new ResilientRun(new JacobiKernel(dec), new RunSpec(8, 10, 10, 2, 0))
                    .strategy(s)
                    .faults(new FaultPlan(List.of(new FaultPlan.Kill(1, 4, FaultPlan.Point.ITERATION_START)), Set.of()))
                    .runEmbedded();
            System.out.println(s + " " + out.recoveryRecords() + " " + out.rankStats());
            assertThat(FieldDigest.ofPartitions(dec, out.finalStates())).isEqualTo(seq.digest());
        }
    }
}
