package org.dfr.jacobi.run;

import org.dfr.runtime.ClusterSettings;

/** Starts one JVM per rank on loopback, streams their logs, collects the report, reaps every child. */
public final class ProcessLauncher {

    private final ClusterSettings settings;

    public ProcessLauncher(ClusterSettings settings) {
        this.settings = settings;
    }

    public RunReport run(JacobiRunConfig config) {
        throw new UnsupportedOperationException("processes mode is not implemented yet");
    }
}
