package org.dfr.harness;

/**
 * A warm rank JVM waiting in a {@link RankJvmPool}, as its file in the pool's directory announces it.
 *
 * @param pid the JVM's process id
 * @param port the loopback port on which it takes one claim
 * @param token the secret a claim starts with (the file is readable by its owner only): another user of the
 *              machine must not have a pooled JVM run a configuration of theirs
 */
record PoolSlot(long pid, int port, String token) {
}
