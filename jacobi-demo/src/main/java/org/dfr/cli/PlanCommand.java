package org.dfr.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** Placeholder: filled in by the issue that owns it. */
@Command(name = "plan", mixinStandardHelpOptions = true, description = "(not yet implemented)")
public final class PlanCommand implements Callable<Integer> {
    @Override
    public Integer call() {
        System.err.println("dfr plan: not implemented yet");
        return 2;
    }
}
