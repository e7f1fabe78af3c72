package org.dfr.power.freq;

/**
 * Caps the CPU frequency of this host to its minimum and puts it back. Implementations are thread-safe.
 * Obtain one from {@link FrequencyControllers#probe}; "cannot cap here" is the
 * {@link NoOpFrequencyController}, not an exception.
 */
public interface FrequencyController {

    /** @return what the machine offers, read afresh, with reasons for what it does not */
    FrequencyCapabilities capabilities();

    /** @return whether {@link #capToMinimum()} can do anything here */
    boolean canCap();

    /**
     * Journals the original limits (if not journaled yet), then sets every writable policy's
     * {@code scaling_max_freq} to its {@code cpuinfo_min_freq}. If any write fails, what was written is
     * restored before the exception is thrown. Capping an already capped host does nothing.
     */
    CapOutcome capToMinimum() throws FrequencyControlException;

    /**
     * Restores the journaled limits (maximum first, then minimum, then governor) and removes the journal.
     * Without a journal it does nothing. On failure the journal is kept so a later restore can retry.
     */
    RestoreOutcome restore() throws FrequencyControlException;

    /**
     * Restores a journal left by a previous process that was killed while capped; call at start-up,
     * before the first cap. Does nothing when there is no journal or this process capped the host itself.
     */
    RestoreOutcome restoreLeftoverJournal() throws FrequencyControlException;

    /** @return whether this controller has capped the host and not restored it yet */
    boolean isCapped();
}
