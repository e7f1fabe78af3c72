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
 */
public record JournalRecord(int version, String sysfsRoot, String host, long pid, long createdEpochMillis,
                            List<PolicyLimits> policies) {

    /** The only format version so far. */
    public static final int FORMAT_VERSION = 1;

    public JournalRecord {
        policies = List.copyOf(policies);
    }
}
