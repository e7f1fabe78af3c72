package org.dfr.harness;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class StackTraceLinesTest {

    @Test
    void when_theLinesHoldATraceWithACause_then_eachRunOfFramesKeepsItsFirstFrameAndCountsTheRest() {
        List<String> lines = List.of(
                "dfr rank: member up (rank 2)",
                "dfr rank: run failed: rank 2: java.lang.IllegalStateException: kernel bug",
                "java.lang.IllegalStateException: kernel bug",
                "\tat com.me.Kernel.update(Kernel.java:90)",
                "\tat org.dfr.harness.KernelWarmUp.run(KernelWarmUp.java:94)",
                "\tat org.dfr.harness.RankProcessMain.call(RankProcessMain.java:226)",
                "Caused by: java.lang.ArithmeticException: / by zero",
                "\tat com.me.Kernel.step(Kernel.java:12)",
                "\t... 3 more");

        assertThat(StackTraceLines.condensed(lines)).containsExactly(
                "dfr rank: member up (rank 2)",
                "dfr rank: run failed: rank 2: java.lang.IllegalStateException: kernel bug",
                "java.lang.IllegalStateException: kernel bug",
                "\tat com.me.Kernel.update(Kernel.java:90)",
                "\t(2 more lines of the trace above, in the rank's output)",
                "Caused by: java.lang.ArithmeticException: / by zero",
                "\tat com.me.Kernel.step(Kernel.java:12)",
                "\t(1 more line of the trace above, in the rank's output)");
    }

    @Test
    void when_theLinesHoldNoTrace_then_theyAreUnchanged() {
        List<String> lines = List.of("dfr rank: member up (rank 0)", "  indented, but not a frame", "Could not join");

        assertThat(StackTraceLines.condensed(lines)).isEqualTo(lines);
    }
}
