package org.dfr.harness;

/** Where the ranks live. */
public enum Mode {
    /** Every rank is a Hazelcast member in this JVM (the default; fast). */
    EMBEDDED,
    /** One JVM per rank, started and reaped by a launcher; failures are real SIGKILLs. */
    PROCESSES
}
