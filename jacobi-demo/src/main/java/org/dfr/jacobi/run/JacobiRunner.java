package org.dfr.jacobi.run;

import java.util.LinkedHashMap;
import java.util.Map;
import org.dfr.jacobi.JacobiKernel;
import org.dfr.recovery.IdleRankListener;
import org.dfr.recovery.ResilientRun;
import org.dfr.runtime.ClusterSettings;
import org.dfr.runtime.RunOutcome;

/**
 * Runs a {@link JacobiRunConfig} and returns its {@link RunReport}: embedded (every rank a member in
 * this JVM) or as one process per rank.
 */
public final class JacobiRunner {

    private final ClusterSettings settings;

    public JacobiRunner() {
        this(new ClusterSettings());
    }

    public JacobiRunner(ClusterSettings settings) {
        this.settings = settings;
    }

    /**
     * Runs the configuration.
     *
     * @throws org.dfr.runtime.RunFailedException when the run cannot give a correct result
     */
    public RunReport run(JacobiRunConfig config) {
        if (config.mode() == Mode.PROCESSES) {
            return new ProcessLauncher(settings).run(config);
        }
        return runEmbedded(config);
    }

    private RunReport runEmbedded(JacobiRunConfig config) {
        IdleRankListener idle = IdleRankListener.NONE;
        ResilientRun run = new ResilientRun(new JacobiKernel(config.decomposition()), config.runSpec())
                .strategy(config.strategy())
                .faults(config.faultPlan())
                .idleListener(idle)
                .settings(settings);
        RunOutcome outcome = run.runEmbedded();
        return RunReports.of(config, outcome, noEnergy());
    }

    static Map<String, Object> noEnergy() {
        Map<String, Object> energy = new LinkedHashMap<>();
        energy.put("source", "none");
        energy.put("reason", "power sampling was not requested");
        return energy;
    }
}
