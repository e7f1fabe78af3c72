package org.dfr.power.freq;

import java.util.List;

/**
 * The content of a {@link RestoreJournal}: enough to put every policy back without the process that
 * capped it.
 *
 * @param version            the format version, {@value #FORMAT_VERSION}
 * @param sysfsRoot          the sysfs root the limits belong to
 * @param host               the host that wrote the journal
 * @param pid                the process that wrote it
 * @param createdEpochMillis when it was first written
 * @param policies           the original limits of every policy about to be capped
 * @param heldUntilRestore   written by {@code dfr power cap}: the cap is meant to outlive its process, until
 *                           {@code dfr power restore}, so the journal is no leftover of a killed one
 */
public record JournalRecord(int version, String sysfsRoot, String host, long pid, long createdEpochMillis,
                            List<PolicyLimits> policies, boolean heldUntilRestore) {

    /** The only format version so far. */
    public static final int FORMAT_VERSION = 1;

    public JournalRecord {
        policies = List.copyOf(policies);
    }

    /** A journal of a process that restores its caps itself (a run), or that is killed first. */
    public JournalRecord(int version, String sysfsRoot, String host, long pid, long createdEpochMillis,
                         List<PolicyLimits> policies) {
        this(version, sysfsRoot, host, pid, createdEpochMillis, policies, false);
    }

    /** This journal, its cap held until {@code dfr power restore}. */
    public JournalRecord heldUntilRestored() {
        return new JournalRecord(version, sysfsRoot, host, pid, createdEpochMillis, policies, true);
    }
}
