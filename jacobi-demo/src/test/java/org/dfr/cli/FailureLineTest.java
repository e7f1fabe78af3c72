package org.dfr.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * What no command caught, typically a bug in a user's kernel, ends in one line naming the command, the
 * exception and where it was thrown, with exit code 1: not in picocli's default stack trace.
 */
class FailureLineTest {

    /** Stands in for a command that meets a kernel whose code throws something unexpected. */
    @Command(name = "boom")
    static final class Boom implements Callable<Integer> {
        @Override
        public Integer call() {
            throw new IllegalStateException("kernel skipring: no halo for partition 9\nsecond line");
        }
    }

    @Test
    void when_aCommandThrows_then_oneLineWithTheExceptionAndItsFrame_andExit1() {
        CommandLine cl = DfrMain.commandLine();
        cl.addSubcommand("boom", new Boom());
        StringWriter err = new StringWriter();
        cl.setErr(new PrintWriter(err));

        int code = cl.execute("boom");

        assertThat(code).isEqualTo(1);
        assertThat(err.toString().strip().lines()).hasSize(1);
        assertThat(err.toString()).startsWith("dfr boom: failed: java.lang.IllegalStateException: kernel skipring: no halo"
                        + " for partition 9 second line at org.dfr.cli.FailureLineTest$Boom.call(FailureLineTest.java:")
                .contains("(DFR_STACK_TRACE=1 prints the stack trace)")
                .doesNotContain("\tat ");
    }
}
