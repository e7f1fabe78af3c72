package org.dfr.harness.campaign;

/** What became of one campaign trial. Only {@link #OK} and {@link #UNRECOVERABLE} pass. */
public enum Outcome {
    /** The reference digest and a well-formed report. */
    OK,
    /**
     * The run stopped with the documented "no copy of checkpoint" error (every copy of a needed
     * checkpoint was lost): correct behaviour, counted apart.
     */
    UNRECOVERABLE,
    /** A different digest, or a report that breaks the checker's rules. */
    WRONG,
    /** Any other failure of the run. */
    ERROR,
    /** The trial did not end within its time bound. */
    HUNG,
    /**
     * The run ended but left something behind: a rank process, a TCP port still listening (in this JVM or
     * a rank process), or a file of the fake sysfs tree (or a restore journal) not back to its original.
     */
    LEFTOVER;

    /** Whether a campaign with this outcome passes. */
    public boolean passes() {
        return this == OK || this == UNRECOVERABLE;
    }
}
