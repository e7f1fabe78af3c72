package org.dfr.harness;

import java.util.List;

/**
 * What a launcher sends the pooled JVM it claimed (one JSON line after the slot's token): the arguments of
 * {@link RankProcessMain}, as a fresh rank JVM would get them on its command line.
 *
 * @param rank the rank id (also in {@code arguments}; set as {@value ProcessLauncher#RANK_PROPERTY})
 * @param arguments the rank's arguments
 * @param exitFile where the JVM writes its exit code before it exits: the launcher is not its parent and
 *                 cannot read it from the process; a JVM that ends without writing it was killed
 * @param stackTraces whether the launcher's environment asks for kernel exceptions' stack traces on the console
 *                    ({@value RankProcessMain#STACK_TRACE_VARIABLE}): the pooled JVM's own environment is that of
 *                    {@code dfr pool start}, not the run's
 */
record PoolClaim(int rank, List<String> arguments, String exitFile, boolean stackTraces) {

    PoolClaim {
        arguments = List.copyOf(arguments);
    }
}
