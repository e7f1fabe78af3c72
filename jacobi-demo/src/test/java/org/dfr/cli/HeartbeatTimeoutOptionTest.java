package org.dfr.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code --heartbeat-timeout-millis} below Hazelcast's one-second granularity is bad input (exit 2, one
 * line naming the value and what is allowed), in both commands that take it.
 */
class HeartbeatTimeoutOptionTest {

    @ParameterizedTest(name = "dfr {0}")
    @CsvSource(delimiter = '|', value = {
            "run --cells 37x29 --iterations 3 --heartbeat-timeout-millis 500|'--heartbeat-timeout-millis': 500 is not allowed: 1000..",
            "campaign --heartbeat-timeout-millis 0|'--heartbeat-timeout-millis': 0 is not allowed: 1000..",
            // Hazelcast counts whole seconds: 1500 was cut to 1 s without a word
            "run --cells 37x29 --iterations 3 --heartbeat-timeout-millis 1500|'--heartbeat-timeout-millis': 1500 is not allowed: 1000..2147483000 in steps of 1000",
            "campaign --heartbeat-timeout-millis soon|'soon'"})
    void when_theTimeoutIsNotWholeSecondsFromOne_then_exit2WithOneLineNamingIt(String args, String message) throws Exception {
        CliRun r = CliRun.of(args.split(" "));

        assertThat(r.exitCode()).as(r.err()).isEqualTo(2);
        assertThat(r.err()).contains(message);
        assertThat(r.err().strip().lines()).as("one line on stderr").hasSize(1);
        assertThat(r.out()).isEmpty();
    }
}
