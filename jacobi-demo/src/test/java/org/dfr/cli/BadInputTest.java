package org.dfr.cli;

import java.util.List;
import java.util.ArrayList;
import org.junit.jupiter.params.provider.ValueSource;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The bad-input table: every row is a command line a user may well type, and each gets exit code 2 and
 * ONE line on stderr that names the bad value and what is allowed, with no stack trace, no usage dump,
 * and no file written. {@code FILE} in a row is replaced by a path in a fresh temporary directory.
 */
class BadInputTest {

    @TempDir
    Path tmp;

    static Stream<Arguments> table() {
        return Stream.of(
                // run: sizes and grids
                row("run --cells 0x5 --iterations 3", "'0x5': every size must be >= 1"),
                row("run --cells 37xfoo --iterations 3", "'37xfoo' is not of the form N, AxB or AxBxC"),
                row("run --cells 3x3x3x3 --iterations 3", "'3x3x3x3' has 4 axes"),
                row("run --cells 37 --iterations 3", "kernel jacobi2d5 takes 2 axes"),
                row("run --cells 37x29 --ranks-grid 40x1 --iterations 3", "more partitions than --cells 37x29"),
                row("run --cells 37x29 --ranks-grid 2x2x2 --iterations 3", "has 2 axes but --ranks-grid 2x2x2 has 3"),
                row("run --kernel heat3d7 --cells 8x8 --iterations 3", "kernel heat3d7 takes 3 axes"),
                row("run --kernel graph-jacobi --cells 5 --ranks-grid 8 --iterations 3", "more partitions than --cells 5"),
                row("run --cells 37x29 --iterations 0", "--iterations must be >= 1, got 0"),
                row("run --cells 37x29 --iterations many", "'many'"),
                row("run --cells 37x29 --iterations 3 --checkpoint-every 0",
                        "--checkpoint-every 0 is not allowed: give a number of iterations K >= 1, or auto"),
                row("run --cells 37x29 --iterations 3 --checkpoint-every often", "--checkpoint-every often is not allowed"),
                row("run --cells 37x29 --iterations 3 --checkpoint-every auto",
                        "--checkpoint-every auto needs --mtbf-seconds T"),
                row("run --cells 37x29 --iterations 3 --checkpoint-every auto --mtbf-seconds 0",
                        "--mtbf-seconds 0.0 is not allowed: give a number of seconds > 0"),
                row("run --cells 37x29 --iterations 3 --checkpoint-every auto --mtbf-seconds -5",
                        "--mtbf-seconds -5.0 is not allowed"),
                row("run --cells 37x29 --iterations 3 --mtbf-seconds 3600",
                        "--mtbf-seconds is only used with --checkpoint-every auto (given: --checkpoint-every 10)"),
                row("run --cells 37x29 --iterations 3 --checkpoint-every 2 --mtbf-seconds 3600",
                        "--mtbf-seconds is only used with --checkpoint-every auto"),
                row("run --cells 37x29 --iterations 30 --checkpoint-every 10 --commit-lag-iterations 10",
                        "--commit-lag-iterations 10 is not allowed with --checkpoint-every 10: give 0..9"),
                row("run --cells 37x29 --iterations 30 --commit-lag-iterations -1",
                        "--commit-lag-iterations -1 is not allowed with --checkpoint-every 10: give 0..9"),
                row("run --cells 37x29 --iterations 30 --checkpoint-every auto --mtbf-seconds 60 --commit-lag-iterations 2",
                        "--commit-lag-iterations 2 is not allowed with --checkpoint-every auto"),
                row("run --cells 37x29 --iterations 30 --checkpoint-backups 0",
                        "--checkpoint-backups 0 is not allowed: 1..2"),
                row("run --cells 37x29 --iterations 30 --checkpoint-backups 3",
                        "--checkpoint-backups 3 is not allowed: 1..2"),
                row("run --cells 37x29 --iterations 30 --checkpoint-replication imap",
                        "'imap' is not a checkpoint replication: allowed are hazelcast, data-plane"),
                row("run --cells 37x29 --iterations 30 --commit-lag-iterations two",
                        "'two'"),
                row("run --cells 37x29 --iterations 3 --respawn-wait-millis 5000",
                        "--respawn-wait-millis is only used with --replacement respawn (given: adopt)"),
                row("run --cells 37x29 --iterations 3 --rank-log-dir target",
                        "--rank-log-dir is only used with --mode processes on this machine"),
                row("run --cells 37x29 --iterations 3 --mode processes --rank-log-dir pom.xml",
                        "--rank-log-dir pom.xml is not a directory"),
                row("run --cells 37x29 --iterations 3 --mode processes --replacement respawn --respawn-wait-millis 10",
                        "--respawn-wait-millis 10 is not allowed: 1000..59999"),
                row("run --cells 37x29 --iterations 3 --tolerance 0", "--tolerance 0.0 is not allowed"),
                row("power sample --seconds 30 --csv FILE", "is a directory; give a file name"),
                row("power cap --sysfs-root FILE --journal FILE", "is a directory; give the journal's file name"),
                row("run --cells 37x29 --iterations 3 --cap-idle-hosts --sysfs-root /etc/passwd",
                        "--sysfs-root /etc/passwd is a file, not a directory"),
                row("run --cells 37x29 --iterations 3 --tolerance -1e-3", "--tolerance -0.001 is not allowed"),
                // run: failures
                row("run --cells 37x29 --iterations 3 --fail 9@2", "rank 9 does not exist; ranks are 0..7"),
                row("run --cells 37x29 --iterations 3 --mode x", "--mode x is not allowed: allowed are embedded, processes"),
                row("campaign --faults some", "--faults some is not allowed: allowed are classic, all"),
                row("run --cells 37x29 --iterations 3 --kernel-option x", "Invalid value for option '--kernel-option' (KEY=VALUE): 'x'"
                        + " is not KEY=VALUE"),
                row("run --cells 37x29 --iterations 3 --kernel-option =x", "'=x' is not KEY=VALUE"),
                row("run --kernel jacobi2d9 --cells 37x29 --iterations 3 --kernel-option boundary=periodic"
                        + " --kernel-option boundary=fixed", "--kernel-option boundary is given twice (boundary=periodic and"
                        + " boundary=fixed): give each key once"),
                row("plan --kernel heat1d3 --cells 64 --grid 4 --lost 1 --checkpoint-iteration 0 --failure-iteration 2"
                        + " --kernel-option boundary=fixed --kernel-option boundary=fixed", "--kernel-option boundary is given twice"),
                row("experiment --out FILE/x --kernel heat1d3 --kernel-option boundary=fixed --kernel-option boundary=open",
                        "--kernel-option boundary is given twice"),
                row("plan --layout 2d5 --grid 2x4 --lost 1 --checkpoint-iteration 0 --failure-iteration 4 --checkpoint-seconds 1",
                        "--checkpoint-seconds is only used with --expected"),
                row("run --cells 64x64 --iterations 3 --spares 2147483647", "--spares 2147483647 is not allowed: 0..1016"
                        + " (at most 1024 ranks in all; a run of 8 partitions)"),
                row("run --cells 512x512 --iterations 3 --ranks-grid 64x64", "--ranks-grid 64x64 makes 4096 ranks: at most"
                        + " 1024 (each is a Hazelcast member with ports of its own)"),
                // 1024 members of one JVM never formed (session 42): refused below 32 cores, before any member starts
                row("run --cells 512x512 --iterations 3 --ranks-grid 32x32", "--ranks-grid 32x32 makes 1024 ranks:"
                        + " embedded mode runs at most"),
                row("experiment --out FILE/x --ranks-grid 32x32", "--ranks-grid 32x32 makes 1024 ranks: embedded mode"
                        + " runs at most"),
                row("run --cells 300000x300000 --iterations 3", "--cells 300000x300000 needs at least 1341.1 GiB of heap"
                        + " in embedded mode"),
                row("simulate --preset quick --threads 100000", "'100000': give 0 (every core) to 1024"),
                row("simulate --preset quick --out ''", "--out is empty: give a directory"),
                row("simulate --preset quick --max-failures 0", "Invalid value for option '--max-failures'"),
                row("simulate --preset custom --nodes 100,2000000000 --dimensions 3 --threads 1 --out FILE/sim",
                        "the sweep needs about 336.0 GB of heap (its largest node count, 2000000000, at 104 to 168 bytes a"
                        + " node from 1D to 3D, 1 runs at a time with --threads 1)"),
                row("run --cells 64x64 --iterations 3 --report ''", "--report is empty: give a file name"),
                // the reference ignored these: --report wrote no file
                row("run --cells 37x29 --iterations 3 --reference --report FILE/r.json", "--reference runs the sequential"
                        + " implementation alone and prints its digest: --report does nothing with it (leave out --report,"
                        + " --samples, --write-rank-config, --checkpoint-dir, --file-checkpoint-every, --restart-from,"
                        + " --cap-idle-hosts, --hosts, --check-reference)"),
                row("run --cells 37x29 --iterations 3 --reference --checkpoint-dir FILE", "--checkpoint-dir does nothing with it"),
                row("run --cells 37x29 --iterations 3 --fail 1@2 --fail-during-recovery 1", "--fail-during-recovery 1 names"
                        + " a rank that is also killed at iteration 2 by --fail or --fail-host"),
                row("run --cells 37x29 --iterations 3 --ranks-grid 2x2 --fail-host 0@2 --fail-host 1@2",
                        "the faults kill all 4 ranks [0, 1, 2, 3]: a run needs at least one survivor to recover"),
                row("run --cells 3x3 --iterations 3", "--ranks-grid 2x4 has more partitions than --cells 3x3 has cells along"
                        + " axis y: every partition needs at least one cell (--ranks-grid was not given; 2x4 is the default"
                        + " for 2 axes)"),
                row("run --kernel heat1d3 --cells 64x64 --iterations 3", "kernel heat1d3 takes 1 axis (--cells N,"
                        + " --ranks-grid P) but got --cells 64x64 and --ranks-grid 2x4 (--ranks-grid was not given; 2x4 is"
                        + " the default for 2 axes)"),
                row("run --cells 37x29 --iterations 3 --fail 1@4", "iteration 4 is past the end of the run"),
                row("run --cells 37x29 --iterations 3 --fail 1@0", "failure iteration must be >= 1, got 0"),
                row("run --cells 37x29 --iterations 3 --fail one@2", "RANK and ITER must be integers"),
                row("run --cells 37x29 --iterations 3 --fail 1-2", "expected RANK@ITER"),
                row("run --cells 37x29 --iterations 3 --fail-host 4@2", "host 4 does not exist; hosts are 0..3"),
                row("run --cells 37x29 --iterations 3 --fail-during-recovery 12", "--fail-during-recovery 12: ranks are 0..7"),
                row("run --cells 37x29 --iterations 6 --fail 2@3 --fail-during-recovery 4 --fail-during-recovery 4",
                        "--fail-during-recovery 4 is given twice: a rank dies once"),
                row("run --cells 37x29 --iterations 6 --fail 1@2 --fail 1@4",
                        "rank 1 is killed twice (at iterations 2 and 4, by --fail or --fail-host): a rank dies once"),
                row("run --cells 37x29 --iterations 6 --fail-host 0@2 --fail 1@5",
                        "rank 1 is killed twice (at iterations 5 and 2, by --fail or --fail-host)"),
                row("run --cells 37x29 --iterations 6 --fail-during-recovery 3",
                        "--fail-during-recovery 3 needs a recovery to fail in: give --fail RANK@ITER or --fail-host HOST@ITER too"),
                row("run --cells 37x29 --iterations 3 --spares -1", "--spares -1 is not allowed: give 0 or more"),
                row("run --cells 37x29 --iterations 3 --ranks-per-host 0", "--ranks-per-host 0 is not allowed: give 1 or more"),
                // run: names and values
                row("run --cells 37x29 --iterations 3 --mode cloud", "--mode cloud is not allowed"),
                row("run --cells 37x29 --iterations 3 --strategy local", "'local' is not a strategy: allowed are global, dfr"),
                row("run --cells 37x29 --iterations 3 --kernel nope", "--kernel 'nope' is not installed; installed: "),
                row("run --cells 37x29 --iterations 3 --kernel-option colour=red", "kernel jacobi2d5 has no option 'colour'"),
                row("run --kernel heat1d3 --cells 99 --iterations 3 --kernel-option boundary=open",
                        "kernel option boundary=open is not allowed: one of fixed, periodic"),
                row("run --cells 37x29 --iterations 3 --kernel-option novalue", "novalue"),
                row("run --cells 37x29 --iterations 3 --kernel-jar /no/such.jar", "--kernel-jar /no/such.jar: no such readable file"),
                row("run --cells 37x29 --iterations 3 --idle-power-watts 40", "go together"),
                row("run --cells 37x29 --iterations 3 --idle-power-watts 90 --busy-power-watts 40", "90"),
                row("run --cells 37x29 --iterations 3 --model-alpha 2", "--model-alpha needs the load model"),
                row("run --hosts a,b,c,d --host-addresses 127.0.0.1 --cells 37x29 --iterations 3",
                        "--hosts cannot be combined with --host-addresses"),
                row("run --hosts 127.0.0.2,127.0.0.3 --cells 37x29 --iterations 3",
                        "--hosts gives 2 addresses but the run has 4 hosts"),
                row("run --hosts a,b,c,d --cap-idle-hosts --cells 37x29 --iterations 3",
                        "--hosts cannot be combined with --cap-idle-hosts"),
                row("run --cells 37x29 --iterations 3 --idle-power-watts 40 --busy-power-watts 90"
                        + " --model-idle-clock-share 1.5", "--model-idle-clock-share 1.5"),
                row("run --cells 37x29 --iterations 3 --report FILE/", "is a directory"),
                // paths no user can write, root included (Files.isWritable says yes to root): refused before the work
                row("run --cells 37x29 --iterations 3 --report /proc/dfr-report.json", "directory /proc is not writable (no file can"
                        + " be created in it: a virtual file system such as /proc or /sys?)"),
                row("run --cells 37x29 --iterations 3 --report /proc/dfr-dir/r.json", "directory /proc/dfr-dir cannot be created"),
                row("run --cells 37x29 --iterations 3 --checkpoint-dir /proc/dfr-ck", "--checkpoint-dir /proc/dfr-ck cannot be created"),
                row("bench --report /proc/dfr-bench.json", "--report /proc/dfr-bench.json: directory /proc is not writable"),
                row("bench-recovery --json /proc/dfr-bench.json", "--json /proc/dfr-bench.json: directory /proc is not writable"),
                row("run --cells 37x29 --iterations 3 --colour red", "Unknown options: '--colour'"),
                // the pool of warm rank JVMs
                row("run --cells 37x29 --iterations 3 --pool", "--pool cannot be used with --mode embedded (its ranks share"
                        + " this JVM; add --mode processes)"),
                row("run --cells 37x29 --iterations 3 --mode processes --pool-dir FILE", "--pool-dir is only used with --pool"),
                row("run --cells 37x29 --iterations 3 --mode processes --pool --write-rank-config FILE/r.json",
                        "--pool cannot be used with --write-rank-config (it starts nothing)"),
                row("run --cells 37x29 --iterations 3 --mode processes --pool --pool-dir pom.xml",
                        "--pool-dir pom.xml is not a directory"),
                row("pool start --size 0 --pool-dir FILE", "--size 0 is not allowed: 1..256"),
                row("pool start --heap-mib 100 --pool-dir FILE", "--heap-mib 100 is not allowed: 256..1048576"),
                row("pool start --idle-minutes 0 --pool-dir FILE", "--idle-minutes 0 is not allowed: 1..525600"),
                row("pool status --pool-dir pom.xml", "--pool-dir pom.xml is not a directory"),
                row("pool", "Missing subcommand: one of start, status, stop"),
                row("run --iterations 3", "Missing required option: '--cells"),
                // campaign
                row("campaign --trials 0", "--trials must be >= 1, got 0"),
                row("campaign --kernel nope", "--kernel 'nope' is not installed; installed: graph-jacobi, heat1d3,"),
                row("campaign --kernel nope", "; or --kernel any for a kernel drawn per trial"),
                row("campaign --seed 7 --replay 5 --trials 3", "--trials 3 is not used with --replay 5, which runs that one"
                        + " trial: leave out one of them"),
                row("campaign --checkpoint-every 0", "--checkpoint-every 0 is not allowed: give a number of iterations >= 1"),
                row("campaign --max-seconds 0", "--max-seconds must be >= 1, got 0"),
                row("campaign --kernel any --cells 9x9", "--kernel any draws kernels"),
                row("campaign --kernel heat3d7 --cells 9x9", "kernel heat3d7 takes 3 axes"),
                // bench, bench-recovery
                row("bench --checkpoint-backups 0", "--checkpoint-backups 0 is not allowed: 1..2"),
                row("campaign --trials 1 --checkpoint-replication Data-Plane",
                        "'Data-Plane' is not a checkpoint replication: allowed are hazelcast, data-plane"),
                row("campaign --checkpoint-backups 5", "--checkpoint-backups 5 is not allowed: 1..2"),
                row("bench-recovery --checkpoint-backups -1", "--checkpoint-backups -1 is not allowed: 1..2"),
                // it compares both strategies; "Unknown options" alone left the reader guessing (a walk-through)
                row("bench-recovery --strategy dfr", "Unknown options: '--strategy', 'dfr'; --strategy is an option of"
                        + " dfr run"),
                row("plan --repetitions 3", "--repetitions is an option of dfr bench-recovery, dfr experiment"),
                row("bench --commit-lag-iterations -2", "--commit-lag-iterations must be >= 0, got -2"),
                row("bench --ranks 0", "'0': a rank count must be >= 1"),
                row("bench --iterations 0 --ranks 1", "--iterations must be >= 1, got 0"),
                row("campaign --iterations 0", "Invalid value for option '--iterations': '0'"),
                // refused before the directory is made: FILE/ck must not appear
                row("run --cells 37x29 --iterations 3 --checkpoint-dir FILE/ck --file-checkpoint-every 0",
                        "--file-checkpoint-every 0 is not allowed: give N >= 1"),
                row("simulate --preset quick --skip-checkpoint-sweep --checkpoint-sweep 2,4", "--skip-checkpoint-sweep"
                        + " leaves out the sweep that --checkpoint-sweep describes: give one or the other"),
                row("simulate --preset quick --kernel heat1d3", "--kernel is only used with --cells and --ranks-grid"),
                row("plan --layout 2d5 --grid 2x4 --lost 1 --checkpoint-iteration 0 --failure-iteration 4"
                        + " --kernel-option boundary=periodic", "--kernel-option and --kernel-jar are for --kernel; a --layout"
                        + " takes --periodic for its boundary"),
                row("bench --kernel heat3d7 --ranks 2x2", "'2x2' has 2 axes but the kernel takes 3"),
                row("bench-recovery --repetitions 0", "--repetitions must be >= 1, got 0"),
                row("bench-recovery --fail 1@x", "RANK and ITER must be integers"),
                // simulate
                row("simulate --preset quick --checkpoint-every 4 --commit-lag-iterations 4",
                        "--commit-lag-iterations 4 is not allowed with --checkpoint-every 4: give 0..3"),
                row("simulate --preset quick --commit-lag-iterations 6",
                        "--commit-lag-iterations 6 is not allowed with --checkpoint-every 6: give 0..5"),
                // picocli names an option by its longest name: --node-mtbf-hours, the concept's name in plan too
                row("simulate --preset quick --mtbf-hours 0", "Invalid value for option '--node-mtbf-hours': '0': give a"
                        + " number > 0"),
                // the names run and experiment give the power model's constants work in simulate too
                row("simulate --preset quick --idle-power-watts 130 --busy-power-watts 120",
                        "--idle-watts 130.0 is not allowed above --busy-watts 120.0"),
                row("simulate --preset quick --task-jitter 1", "option '--task-jitter': '1': give a number in [0, 1)"),
                row("simulate --preset quick --link-bits-per-second NaN", "option '--link-bits-per-second': 'NaN' is not a finite number"),
                row("simulate --preset quick --dimensions 2,4", "option '--dimensions' (D[,D...]): '4': give 1, 2 or 3"),
                row("simulate --preset quick --nodes 16,0", "option '--nodes' (N[,N...]): '0': give an integer >= 1"),
                row("simulate --preset quick --seeds few", "option '--seeds': 'few' is not an integer: give an integer >= 1"),
                row("simulate --preset quick --latency-seconds -1e-6", "option '--latency-seconds': '-1e-6': give a number >= 0"),
                row("simulate --preset quick --capped-idle-watts 200",
                        "--capped-idle-watts 200.0 is not allowed above --idle-watts 125.0 (the default): capping an idle node"
                                + " lowers its power"),
                row("simulate --preset quick --busy-watts 100",
                        "--idle-watts 125.0 (the default) is not allowed above --busy-watts 100.0: a waiting node"),
                row("simulate --preset custom", "--preset custom needs --nodes N[,N...]"),
                row("simulate --kernel heat1d3 --cells 400 --ranks-grid 100 --nodes 5",
                        "--nodes is for the sweep: with --cells the simulation takes the kernel's own partitions"),
                row("simulate --preset quick --kernel heat1d3 --cells 400 --ranks-grid 100", "--preset is for the sweep"),
                // plan
                row("plan --layout 2d5 --grid 2x4 --expected --checkpoint-interval 10 --commit-lag-iterations 10",
                        "--commit-lag-iterations 10 is not allowed with --checkpoint-interval 10: give 0..9"),
                row("plan --layout 2d5 --grid 2x4 --lost 1 --checkpoint-iteration 0 --failure-iteration 4"
                        + " --commit-lag-iterations 1", "--commit-lag-iterations is only used with --expected"),
                row("plan --grid 2x4 --lost 1 --checkpoint-iteration 0 --failure-iteration 4", "missing --layout or --kernel"),
                row("plan --layout 2d5 --kernel heat1d3 --cells 9 --grid 2x4 --lost 1 --checkpoint-iteration 0"
                        + " --failure-iteration 4", "give either --layout or --kernel"),
                row("plan --layout 2d5 --cells 10x10 --grid 2x4 --lost 1 --checkpoint-iteration 0 --failure-iteration 4",
                        "--cells is for --kernel: a --layout plans partitions, not cells"),
                row("plan --kernel jacobi2d5 --cells 64x64 --grid 8 --lost 1 --checkpoint-iteration 0 --failure-iteration 4",
                        "--ranks-grid 8 has 1 axis but --cells 64x64 has 2"),
                row("plan --layout 2d5 --grid 2x4 --lost 8 --checkpoint-iteration 0 --failure-iteration 4",
                        "--lost partition 8 is out of range"),
                row("plan --layout 2d5 --grid 2x4 --lost 1 --checkpoint-iteration 3 --failure-iteration 2",
                        "--failure-iteration must be greater than --checkpoint-iteration 3"),
                row("plan --layout 2d5 --grid 2x4 --lost 1 --expected --checkpoint-every 0",
                        "--checkpoint-interval must be at least 1 but was 0"),
                // experiment
                row("experiment --out FILE/x --sample-period-millis 0", "(--sample-period-millis) 0 is not allowed: give a period >= 1 ms"),
                row("experiment --out FILE/x --config /no/such.yaml", "--config /no/such.yaml: no such readable file"),
                // was read as 512, and the line quoted "--cells 512 and --ranks-grid 8"
                row("experiment --out FILE/x --cells 512x", "--cells '512x' is not of the form N, AxB or AxBxC"),
                row("experiment --out FILE/x --mode cloud", "(--mode) 'cloud' is not allowed: one of [embedded, processes]"),
                row("experiment --out /proc/dfr-experiment", "--out /proc/dfr-experiment cannot be created"),
                row("experiment --out FILE/x --variants dfr,global,dfr", "variants [dfr, global, dfr] name a variant twice"),
                row("experiment --out FILE/x --kernel heat1d3 --kernel-jar /no/such.jar",
                        "--kernel-jar /no/such.jar: no such readable file"),
                row("experiment --out FILE/x --kernel-jar FILE/k.jar", "k.jar: no such readable file"),
                row("experiment --out FILE/x --kernel heat1d3 --cells 64 --ranks-grid 4 --fail 1@4 --kernel-option boundary=torus",
                        "torus"),
                row("experiment --out FILE/x --sysfs-root FILE/no-such-tree", "/no-such-tree: no such directory"),
                row("experiment --out FILE/x --sysfs-root /sys --fake-sysfs", "--sysfs-root /sys and --fake-sysfs exclude each other"),
                row("experiment --out FILE/x --sweep nope=1,2", "unknown sweep parameter 'nope': one of [fail, fail-iteration,"),
                row("experiment --out FILE/x --sweep fail-iteration=2", "give 2..100 values, e.g. fail-iteration=V1,V2"),
                row("experiment --out FILE/x --sweep checkpoint-every=5,0",
                        "sweep value '0' of checkpoint-every is not allowed: give an interval >= 1"),
                // every point is checked whole before the first run: the second's failure is past the run
                row("experiment --out FILE/x --sweep fail-iteration=2,40",
                        "sweep point fail-iteration=40: --fail 1@40: iteration 40 is past the end of the run"),
                row("experiment --out FILE/x --sweep fail=1@2,9@3", "sweep point fail=9@3: --fail 9@3: rank 9 does not exist"),
                row("experiment --out FILE/x --sweep ranks-grid=2x4,2x2x2", "sweep point ranks-grid=2x2x2: "),
                row("experiment --out FILE/x --sweep-order sequential", "--sweep-order sequential orders the points of a"
                        + " sweep: give --sweep PARAMETER=V1,V2,..."),
                row("experiment --out FILE/x --sweep-by iterations=5,6", "--sweep-by iterations=5,6 is the second"
                        + " setting of a sweep: give --sweep PARAMETER=V1,V2,..."),
                row("experiment --out FILE/x --sweep iterations=5,6 --sweep-by iterations=7,8", "sweep-by"
                        + " iterations=7,8 is not allowed: it varies iterations again"),
                row("experiment --out FILE/x --sweep iterations=5,6 --sweep-by fail-iteration=2,40",
                        "sweep point iterations=5 fail-iteration=40: --fail 1@40: iteration 40 is past the end"),
                row("experiment --out FILE/x --sweep iterations=5,6 --sweep-by nope=1,2", "unknown sweep parameter"
                        + " 'nope': one of [fail, fail-iteration,"),
                row("experiment --out FILE/x --sweep iterations=5,6 --sweep-order random",
                        "unknown sweep order 'random': interleaved or sequential"),
                row("plan --layout 2d5 --grid 2x4 --lost 1 --checkpoint-iteration 0 --failure-iteration 2000000000",
                        "makes 1999999999 levels of up to 8 partitions: at most 120000000 entries are planned"),
                row("plan --layout 2d5 --grid 2x4 --lost 1 --expected --checkpoint-interval 10 --nodes 0",
                        "Invalid value for option '--nodes': '0': give an integer >= 1"),
                row("plan --layout 2d5 --grid 2x4 --lost 1 --expected --checkpoint-interval 10 --idle-power-watts 200",
                        "--idle-power-watts 200.0 is not allowed above --busy-power-watts"),
                row("run --cells 37x29 --iterations 3 --host-addresses 192.0.2.1,127.0.0.3,127.0.0.4,127.0.0.5",
                        "--host-addresses: 192.0.2.1 is not an address of this machine, where every rank of this run starts"),
                // an empty entry was dropped at the end, and read as this machine's name in the middle
                row("run --cells 37x29 --iterations 3 --host-addresses 127.0.0.2,127.0.0.3,127.0.0.4,",
                        "'127.0.0.2,127.0.0.3,127.0.0.4,' has an empty entry (number 4)"),
                row("run --cells 37x29 --iterations 3 --host-addresses 127.0.0.2,,127.0.0.4,127.0.0.5",
                        "'127.0.0.2,,127.0.0.4,127.0.0.5' has an empty entry (number 2)"),
                row("run --cells 37x29 --iterations 3 --hosts a,b,,d",
                        "'a,b,,d' has an empty entry (number 3)"),
                row("run --cells 37x29 --iterations 3 --host-addresses 127.0.0.2,127.0.0.3,127.0.0.4,127.0.0.5,127.0.0.6",
                        "--host-addresses gives 5 addresses but the run has 4 hosts (8 ranks, 2 per host): give one per host"),
                row("run --cells 37x29 --iterations 3 --host-addresses 127.0.0.2",
                        "--host-addresses gives 1 address but the run has 4 hosts (8 ranks, 2 per host)"),
                row("run --cells 37x29 --iterations 3 --write-rank-config FILE/r.json --cap-idle-hosts",
                        "--write-rank-config cannot be combined with --cap-idle-hosts (capping is done by a launcher"),
                row("run --cells 37x29 --iterations 3 --write-rank-config FILE/r.json --report FILE/report.json",
                        "--write-rank-config cannot be combined with --report (each rank writes its own: dfr rank --result FILE)"),
                row("run --cells 37x29 --iterations 3 --write-rank-config FILE/r.json --mode embedded",
                        "--write-rank-config cannot be combined with --mode embedded"),
                row("run --hosts a,b,c,d --mode embedded --cells 37x29 --iterations 3",
                        "--hosts cannot be combined with --mode embedded"),
                row("run --cells 37x29 --iterations 3 --cap-idle-hosts --sysfs-root FILE/no-such-tree",
                        "/no-such-tree: no such directory (give the root of a sysfs tree"),
                row("run --cells 37x29 --iterations 3 --ssh-command ssh",
                        "--ssh-command is only used with --hosts (it says how ranks are started over ssh)"),
                row("run --cells 37x29 --iterations 3 --shared-dir FILE/shared", "--shared-dir is only used with --hosts"),
                row("run --cells 37x29 --iterations 6 --fail 1@2 --reference",
                        "--reference runs the sequential implementation without failures: leave out --fail"),
                row("run --cells 37x29 --iterations 6 --fail-host 1@2 --reference",
                        "--reference runs the sequential implementation without failures"),
                row("run --cells 37x29 --iterations 6 --fail-during-recovery 2 --reference",
                        "--reference runs the sequential implementation without failures"),
                // kernels, unknown commands
                row("kernels --kernel-jar /no/such.jar", "--kernel-jar /no/such.jar: no such readable file"),
                row("frobnicate", "Unmatched argument at index 0: 'frobnicate'"));
    }

    @Test
    void when_experimentOutHoldsFilesAlready_then_exit2AndNothingWrittenThere() throws Exception {
        Path out = Files.createDirectories(tmp.resolve("out"));
        Files.writeString(out.resolve("runs.csv"), "from an earlier experiment\n");

        CliRun r = CliRun.of("experiment", "--out", out.toString(), "--repetitions", "1", "--warmups", "0");

        assertThat(r.exitCode()).as(r.err()).isEqualTo(2);
        assertThat(r.err().strip().lines()).hasSize(1);
        assertThat(r.err()).contains("--out " + out + " is not empty: give a new or empty directory");
        try (Stream<Path> left = Files.list(out)) {
            assertThat(left).containsExactly(out.resolve("runs.csv"));
        }
    }

    @Test
    void when_aPowerCommandIsGivenATreePerHost_then_itAsksForOneOfThem() throws Exception {
        Path trees = tmp.resolve("trees");
        Files.createDirectories(trees.resolve("host0/sys"));
        Files.createDirectories(trees.resolve("host1/sys"));

        CliRun r = CliRun.of("power", "status", "--sysfs-root", trees.toString());

        assertThat(r.exitCode()).as(r.err()).isEqualTo(2);
        assertThat(r.err().strip().lines()).hasSize(1);
        assertThat(r.err()).contains("holds one tree per simulated host (host0/, host1/, ...): give one of them, e.g."
                + " --sysfs-root " + trees.resolve("host0"));
    }

    /** An experiment file's content, and what the one line must say (CONFIG stands for the file's path). */
    static Stream<Arguments> badExperimentFiles() {
        return Stream.of(
                Arguments.of("name: bad\niterations: many\n", "--config CONFIG (line 2): 'iterations' takes a number",
                        "got 'many'"),
                // Jackson named the end of the file (a record's keys are read before it is built) and its Java class
                Arguments.of("name: typo\nrepetitons: 2\niterations: 10\n", "--config CONFIG (line 2): unknown key"
                        + " 'repetitons'", "the keys are busyPowerWatts, cells, checkpointEvery"),
                Arguments.of("name: sizes\ncells: 256x256\n", "--config CONFIG (line 2): 'cells' takes a list,"
                        + " e.g. [256, 256]", "'cells'"),
                Arguments.of("name: twice\niterations: 10\niterations: 20\n", "--config CONFIG (line 3, column",
                        "Duplicate field 'iterations'"),
                // refused with the model's constants only: without them it went unchecked
                Arguments.of("modelIdleClockShare: 1.5\n", "modelIdleClockShare (--model-idle-clock-share) 1.5 is not allowed", "0..1"),
                Arguments.of("fakeMinKHz: 3000000\nfakeMaxKHz: 2600000\n", "fakeMinKHz 3000000 and fakeMaxKHz 2600000",
                        "are not allowed: give 1 <= fakeMinKHz < fakeMaxKHz"),
                Arguments.of("sweep:\n  parameter: nope\n  values: [1, 2]\n", "--config CONFIG (line 2",
                        "unknown sweep parameter 'nope'"),
                Arguments.of("sweep:\n  parameter: iterations\n  values: [5]\n", "--config CONFIG (line",
                        "give 2..100 values"),
                // Jackson's "Cannot construct instance of `org.dfr.harness.experiment.Variant`" (a walk-through)
                Arguments.of("name: v\nvariants: [global, dfr+caping]\n", "--config CONFIG (line 2, column",
                        "'variants': unknown variant 'dfr+caping': use global, dfr or dfr+capping"));
    }

    @ParameterizedTest(name = "{2}")
    @MethodSource("badExperimentFiles")
    void when_theExperimentFileIsBad_then_oneLineSayingWhereAndNothingWritten(String content, String where, String what)
            throws Exception {
        Path config = Files.writeString(tmp.resolve("experiment.yaml"), content);

        CliRun r = CliRun.of("experiment", "--config", config.toString(), "--out", tmp.resolve("out").toString());

        assertThat(r.exitCode()).as(r.err()).isEqualTo(2);
        assertThat(r.err().strip().lines()).hasSize(1);
        assertThat(r.err()).contains(where.replace("CONFIG", config.toString())).contains(what)
                .doesNotContain("reference chain");
        assertThat(tmp.resolve("out")).doesNotExist();
    }

    @Test
    void when_kernelJarIsNoJar_then_exit2NamingIt() throws Exception {
        Path notAJar = Files.writeString(tmp.resolve("kernels.jar"), "not a zip\n");

        CliRun r = CliRun.of("kernels", "--kernel-jar", notAJar.toString());

        assertThat(r.exitCode()).as(r.err()).isEqualTo(2);
        assertThat(r.err().strip().lines()).hasSize(1);
        assertThat(r.err()).contains("--kernel-jar " + notAJar + ": not a jar file");
    }

    @ParameterizedTest
    @ValueSource(strings = {"run --iterations 3 --cells 37x29 --kernel-option colour=red",
            "run --iterations 3 --cells 64 --kernel heat1d3 --kernel-option boundary=open",
            "plan --kernel jacobi2d9 --kernel-option colour=red --cells 16x16 --ranks-grid 2x2 --lost 1"
                    + " --checkpoint-iteration 0 --failure-iteration 3",
            "campaign --trials 1 --kernel jacobi2d9 --kernel-option boundary=open",
            "bench-recovery --repetitions 1 --kernel jacobi2d9 --kernel-option boundary=open",
            "simulate --cells 37x29 --ranks-grid 2x4 --kernel jacobi2d9 --kernel-option boundary=open",
            "experiment --repetitions 1 --out FILE --kernel jacobi2d9 --kernel-option boundary=open"})
    void when_aKernelOptionIsBad_then_theLinePointsAtDfrKernelsNotAtTheCommandsHelp(String command) {
        Path out = tmp.resolve("experiment-out");
        String[] args = command.replace("FILE", out.toString()).split(" ");

        CliRun r = CliRun.of(args);

        assertThat(r.exitCode()).as(r.err()).isEqualTo(2);
        assertThat(r.err().strip().lines()).as(r.err()).singleElement().asString()
                .endsWith("(dfr kernels lists each kernel's options)").doesNotContain("--help");
        assertThat(out).doesNotExist();
    }

    @ParameterizedTest
    @ValueSource(strings = {"run --cells 37x29 --iterations 3", "campaign --trials 1", "bench-recovery --repetitions 1",
            "simulate --cells 37x29 --ranks-grid 2x4", "experiment --repetitions 1 --out FILE"})
    void when_aKernelJarIsGivenWithoutKernel_then_exit2InsteadOfRunningTheBuiltInKernel(String command) throws Exception {
        Path jar = CheckReferenceTest.noisyJar(Files.createDirectories(tmp.resolve("jar")));
        Path out = tmp.resolve("experiment-out");
        List<String> args = new ArrayList<>(List.of(command.replace("FILE", out.toString()).split(" ")));
        args.addAll(List.of("--kernel-jar", jar.toString()));

        CliRun r = CliRun.of(args.toArray(String[]::new));

        assertThat(r.exitCode()).as(r.err()).isEqualTo(2);
        assertThat(r.err().strip().lines()).as(r.err()).hasSize(1);
        assertThat(r.err()).contains("--kernel-jar " + jar + " is given without --kernel")
                .contains(": name the kernel to run (the jar's: noisy1d); without it the built-in jacobi2d5 would run");
        assertThat(out).doesNotExist();
    }

    @Test
    void when_kernelJarListsNoProvider_then_exit2SayingWhereProvidersAreListed() throws Exception {
        Path jar = tmp.resolve("empty.jar");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
            out.putNextEntry(new JarEntry("README.txt"));
            out.write("no kernels here".getBytes(StandardCharsets.UTF_8));
            out.closeEntry();
        }

        CliRun r = CliRun.of("run", "--cells", "37x29", "--iterations", "3", "--kernel-jar", jar.toString());

        assertThat(r.exitCode()).as(r.err()).isEqualTo(2);
        assertThat(r.err().strip().lines()).hasSize(1);
        assertThat(r.err()).contains("--kernel-jar " + jar + ": lists no kernel provider (a kernel jar names its"
                + " providers in META-INF/services/org.dfr.runtime.kernel.KernelProvider)");
    }

    private static Arguments row(String args, String message) {
        return Arguments.of(args, message);
    }

    @ParameterizedTest(name = "dfr {0}")
    @MethodSource("table")
    void when_inputIsBad_then_exit2WithOneLineNamingTheValue(String args, String message) throws Exception {
        // '' stands for an empty argument
        String[] argv = Stream.of(args.replace("FILE", tmp.toString()).split(" "))
                .map(a -> a.equals("''") ? "" : a).toArray(String[]::new);

        CliRun r = CliRun.of(argv);

        assertThat(r.exitCode()).as(r.err()).isEqualTo(2);
        assertThat(r.err()).contains(message);
        assertThat(r.err().strip().lines()).as("one line on stderr").hasSize(1);
        assertThat(r.err()).doesNotContain("Exception").doesNotContain("\tat ").doesNotContain("Usage:");
        assertThat(r.out()).as("nothing on stdout").isEmpty();
        try (Stream<Path> written = Files.list(tmp)) {
            assertThat(written).as("no file written").isEmpty();
        }
    }
}
