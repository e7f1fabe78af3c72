package org.dfr.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code dfr run --replacement} (and {@code dfr campaign --replay N --replacement}): a replacement that
 * cannot work with the other options (or the replayed trial) is bad input (exit 2, one line naming the
 * value and what it needs), found before anything starts.
 */
class ReplacementOptionTest {

    @ParameterizedTest(name = "dfr {0}")
    @CsvSource(delimiter = '|', value = {
            "run --cells 37x29 --iterations 3 --replacement respawn|--replacement respawn needs --mode processes",
            "run --cells 37x29 --iterations 3 --replacement respawn --mode processes --spares 1|--replacement respawn cannot be combined with --spares 1",
            "run --cells 37x29 --iterations 3 --replacement respawn --mode processes --write-rank-config x.json|--replacement respawn cannot be combined with --write-rank-config",
            "run --cells 37x29 --iterations 3 --replacement spare|--replacement spare needs spare ranks: give --spares S",
            "run --cells 37x29 --iterations 3 --replacement adopt --spares 2|--replacement adopt cannot be combined with --spares 2",
            "run --cells 37x29 --iterations 3 --replacement later|--replacement later is not allowed: spare|adopt|respawn",
            "campaign --trials 3 --replacement adopt|--replacement adopt needs --replay N: a campaign draws each trial's replacement",
            "campaign --replay 0 --replacement respawn|--replacement respawn needs --mode processes",
            "campaign --replay 0 --replacement spare|--replacement spare needs spare ranks",
            "campaign --replay 0 --replacement later|--replacement later is not allowed: spare|adopt|respawn"})
    void when_theReplacementCannotWork_then_exit2WithOneLineNamingIt(String args, String message) throws Exception {
        CliRun r = CliRun.of(args.split(" "));

        assertThat(r.exitCode()).as(r.err()).isEqualTo(2);
        assertThat(r.err()).contains(message);
        assertThat(r.err().strip().lines()).as("one line on stderr").hasSize(1);
        assertThat(r.out()).isEmpty();
    }

    @ParameterizedTest(name = "dfr {0}")
    @CsvSource(delimiter = '|', value = {
            "run --cells 12x12 --iterations 3 --replacement adopt",
            "run --cells 12x12 --iterations 3 --replacement spare --spares 1",
            "run --cells 12x12 --iterations 3 --spares 1"})
    void when_theReplacementFitsAnEmbeddedRun_then_theRunSucceeds(String args) throws Exception {
        CliRun r = CliRun.of(args.split(" "));

        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).contains("field sha256:");
    }
}
