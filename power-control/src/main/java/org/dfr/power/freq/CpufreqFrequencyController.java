package org.dfr.power.freq;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.dfr.power.HostName;
import org.dfr.power.sysfs.Sysfs;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Caps through cpufreq sysfs attributes: every writable policy's {@code scaling_max_freq} goes to its
 * {@code cpuinfo_min_freq}, which drags {@code scaling_min_freq} down with it. This works for
 * intel_pstate (active and passive), acpi-cpufreq, amd-pstate and the other drivers alike, because the
 * kernel turns {@code scaling_max_freq} into a frequency QoS limit for all of them.
 */
public final class CpufreqFrequencyController implements FrequencyController {

    private static final Logger LOG = LoggerFactory.getLogger(CpufreqFrequencyController.class);

    private final Sysfs sysfs;
    private final RestoreJournal journal;
    private boolean capped;

    /** Use {@link FrequencyControllers#probe} unless the tree is known to have writable policies. */
    public CpufreqFrequencyController(Sysfs sysfs, RestoreJournal journal) {
        this.sysfs = Objects.requireNonNull(sysfs, "sysfs");
        this.journal = Objects.requireNonNull(journal, "journal");
    }

    public RestoreJournal journal() {
        return journal;
    }

    @Override
    public synchronized FrequencyCapabilities capabilities() {
        return FrequencyControllers.inspect(sysfs);
    }

    @Override
    public boolean canCap() {
        return capabilities().controllable();
    }

    @Override
    public synchronized CapOutcome capToMinimum() throws FrequencyControlException {
        if (capped) {
            return CapOutcome.nothing("already capped");
        }
        FrequencyCapabilities caps = FrequencyControllers.inspect(sysfs);
        List<CpufreqPolicy> policies = caps.writablePolicies();
        if (policies.isEmpty()) {
            return CapOutcome.nothing("frequency capping is a no-op: " + caps.reason());
        }
        journalOriginals(policies);
        capped = true;
        List<FrequencyChange> changes = new ArrayList<>();
        try {
            for (CpufreqPolicy policy : policies) {
                changes.add(KernelWrites.writeKHz(sysfs, policy.dir() + "/scaling_max_freq",
                        policy.cpuinfoMinKHz(), policy.cpuinfoMinKHz(), policy.cpuinfoMaxKHz()));
            }
        } catch (FrequencyControlException e) {
            LOG.warn("capping failed, restoring what was written: {}", e.getMessage());
            try {
                restore();
            } catch (FrequencyControlException restoreFailure) {
                e.addSuppressed(restoreFailure);
            }
            throw e;
        }
        LOG.info("capped {} cpufreq policies under {} to their minimum frequency", policies.size(), sysfs.root());
        return new CapOutcome(true, changes, "capped " + policies.size() + " cpufreq "
                + (policies.size() == 1 ? "policy" : "policies") + " to the minimum frequency (journal "
                + journal.file() + ")");
    }

    /**
     * Journals the limits to restore. A journal left behind by a killed process already holds the true
     * originals (the current values may be its caps), so its entries win over what is read now.
     */
    private void journalOriginals(List<CpufreqPolicy> policies) throws FrequencyControlException {
        Optional<JournalRecord> leftover;
        try {
            leftover = journal.read();
        } catch (IOException e) {
            throw new FrequencyControlException("cannot read the restore journal " + journal.file()
                    + "; nothing was changed: " + e.getMessage(), e);
        }
        Map<String, PolicyLimits> originals = new LinkedHashMap<>();
        leftover.ifPresent(r -> r.policies().forEach(p -> originals.put(p.dir(), p)));
        policies.forEach(p -> originals.putIfAbsent(p.dir(), PolicyLimits.of(p)));
        JournalRecord record = new JournalRecord(JournalRecord.FORMAT_VERSION, sysfs.root().toString(),
                HostName.local(), ProcessHandle.current().pid(),
                leftover.map(JournalRecord::createdEpochMillis).orElse(System.currentTimeMillis()),
                new ArrayList<>(originals.values()));
        try {
            journal.write(record);
        } catch (IOException e) {
            throw new FrequencyControlException("cannot write the restore journal " + journal.file()
                    + "; nothing was changed: " + e.getMessage(), e);
        }
    }

    @Override
    public synchronized RestoreOutcome restore() throws FrequencyControlException {
        Optional<JournalRecord> record;
        try {
            record = journal.read();
        } catch (IOException e) {
            throw new FrequencyControlException("cannot read the restore journal " + journal.file() + ": "
                    + e.getMessage(), e);
        }
        if (record.isEmpty()) {
            capped = false;
            return RestoreOutcome.nothing("nothing to restore: no journal at " + journal.file());
        }
        List<FrequencyChange> changes = JournalRestorer.restore(sysfs, record.get());
        try {
            journal.delete();
        } catch (IOException e) {
            throw new FrequencyControlException("restored every policy but cannot remove the journal "
                    + journal.file() + ": " + e.getMessage(), e);
        }
        capped = false;
        LOG.info("restored {} cpufreq policies under {}", record.get().policies().size(), sysfs.root());
        return new RestoreOutcome(true, changes, "restored the original limits of "
                + record.get().policies().size() + " cpufreq "
                + (record.get().policies().size() == 1 ? "policy" : "policies") + " from " + journal.file());
    }

    @Override
    public synchronized RestoreOutcome restoreLeftoverJournal() throws FrequencyControlException {
        if (capped) {
            return RestoreOutcome.nothing("this process holds the cap; restore() lifts it");
        }
        if (!journal.exists()) {
            return RestoreOutcome.nothing("no leftover journal at " + journal.file());
        }
        try {
            if (journal.read().map(JournalRecord::heldUntilRestore).orElse(false)) {
                return RestoreOutcome.nothing("the cap of `dfr power cap` holds until `dfr power restore` ("
                        + journal.file() + ")");
            }
        } catch (IOException e) {
            // an unreadable journal: restore() names it
        }
        LOG.warn("found a leftover frequency journal {}: a previous process was killed while capped; restoring",
                journal.file());
        return restore();
    }

    @Override
    public synchronized boolean isCapped() {
        return capped;
    }

    @Override
    public String toString() {
        return "CpufreqFrequencyController[" + sysfs.root() + ", journal " + journal.file() + "]";
    }
}
