package org.dfr.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/** Progress without a terminal (as in a log or a pipe): one line per step, and one when all are done. */
class ProgressTest {

    @Test
    void when_everyStepFinished_then_theLastLineSaysSoInsteadOfTheLastStepsEta() {
        StringWriter text = new StringWriter();
        try (Progress progress = Progress.start("bench-recovery", 2, new PrintWriter(text))) {
            progress.next("global, repetition 1 of 1");
            progress.next("dfr, repetition 1 of 1");
            progress.done();
        }

        assertThat(text.toString().lines().toList()).hasSize(3)
                .element(0).asString().startsWith("bench-recovery: [1/2] global, repetition 1 of 1 ... (elapsed ");
        assertThat(text.toString().lines().toList().get(1)).startsWith("bench-recovery: [2/2] dfr, repetition 1 of 1")
                .contains("ETA");
        assertThat(text.toString().lines().toList().get(2)).matches("bench-recovery: 2 of 2 done in \\d+ s");
    }

    @Test
    void when_aStepFailed_then_nothingSaysDone() {
        StringWriter text = new StringWriter();
        try (Progress progress = Progress.start("bench", 2, new PrintWriter(text))) {
            progress.next("sequential kernel");
        }

        assertThat(text.toString()).doesNotContain("done");
    }

    @Test
    void when_theJvmShutsDownDuringAStep_then_oneLineNamesTheStepAndSaysNothingWasWritten() {
        StringWriter text = new StringWriter();
        try (Progress progress = Progress.start("bench-recovery", 4, new PrintWriter(text))) {
            progress.next("global, repetition 1 of 2");
            progress.next("dfr, repetition 1 of 2");
            // what the shutdown hook runs on SIGINT or SIGTERM; the launcher failing with "interrupted" says it again
            progress.interruptNotice().onShutdown();
            progress.interruptNotice().sayOnce();
            assertThat(progress.interruptNotice().shuttingDown()).isTrue();
        }

        assertThat(text.toString().lines().filter(l -> l.contains("interrupted")).toList()).singleElement().asString()
                .matches("dfr bench-recovery: interrupted \\(SIGINT or SIGTERM\\) in step 2 of 4"
                        + " \\(dfr, repetition 1 of 2\\) after \\d+ s: nothing written");
    }
}
