package org.dfr.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** Placeholder: filled in by the issue that owns it. */
@Command(name = "bench", mixinStandardHelpOptions = true, description = "(not yet implemented)")
public final class BenchCommand implements Callable<Integer> {
    @Override
    public Integer call() {
        System.err.println("dfr bench: not implemented yet");
        return 2;
    }
}
