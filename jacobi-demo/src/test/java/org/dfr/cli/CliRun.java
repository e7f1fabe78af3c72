package org.dfr.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import picocli.CommandLine;

/** Runs the {@code dfr} command line in-process and captures what it printed, for CLI tests. */
record CliRun(int exitCode, String out, String err) {

    static CliRun of(String... args) {
        CommandLine cl = DfrMain.commandLine();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        int code = cl.execute(args);
        return new CliRun(code, out.toString(), err.toString());
    }

    /** Same as {@link #exitCode()}, for tests that call it {@code code}. */
    int code() {
        return exitCode;
    }
}
