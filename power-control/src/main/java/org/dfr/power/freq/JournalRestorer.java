package org.dfr.power.freq;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.dfr.power.sysfs.Sysfs;

/**
 * Puts journaled limits back. Per policy it writes {@code scaling_max_freq} first, then
 * {@code scaling_min_freq} (a minimum above the current capped maximum would be clamped down), then the
 * governor if it changed. It goes on after a failing policy so one bad CPU does not leave the others
 * capped, and reports every failure at the end.
 */
public final class JournalRestorer {

    private JournalRestorer() {
    }

    /**
     * @return the attributes written
     * @throws FrequencyControlException listing every policy that could not be restored
     */
    public static List<FrequencyChange> restore(Sysfs sysfs, JournalRecord record) throws FrequencyControlException {
        List<FrequencyChange> changes = new ArrayList<>();
        List<String> failures = new ArrayList<>();
        for (PolicyLimits limits : record.policies()) {
            try {
                restorePolicy(sysfs, limits, changes);
            } catch (FrequencyControlException e) {
                failures.add(e.getMessage());
            }
        }
        if (!failures.isEmpty()) {
            throw new FrequencyControlException("restore incomplete (" + failures.size() + " of "
                    + record.policies().size() + " policies): " + String.join("; ", failures));
        }
        return changes;
    }

    private static void restorePolicy(Sysfs sysfs, PolicyLimits limits, List<FrequencyChange> changes)
            throws FrequencyControlException {
        String dir = limits.dir();
        long hwMin;
        long hwMax;
        long currentMax;
        long currentMin;
        try {
            hwMin = sysfs.readLong(dir + "/cpuinfo_min_freq");
            hwMax = sysfs.readLong(dir + "/cpuinfo_max_freq");
            currentMax = sysfs.readLong(dir + "/scaling_max_freq");
            currentMin = sysfs.readLong(dir + "/scaling_min_freq");
        } catch (IOException e) {
            throw new FrequencyControlException("cannot read " + sysfs.display(dir) + ": " + KernelWrites.describe(e), e);
        }
        if (currentMax != limits.scalingMaxKHz()) {
            changes.add(KernelWrites.writeKHz(sysfs, dir + "/scaling_max_freq", limits.scalingMaxKHz(), hwMin, hwMax));
        }
        if (currentMin != limits.scalingMinKHz()) {
            // the minimum may not exceed the (now restored) maximum
            changes.add(KernelWrites.writeKHz(sysfs, dir + "/scaling_min_freq", limits.scalingMinKHz(), hwMin,
                    Math.min(hwMax, limits.scalingMaxKHz())));
        }
        if (!limits.governor().isEmpty()) {
            String governor;
            try {
                governor = sysfs.read(dir + "/scaling_governor");
            } catch (IOException e) {
                throw new FrequencyControlException("cannot read " + sysfs.display(dir + "/scaling_governor") + ": "
                        + KernelWrites.describe(e), e);
            }
            if (!governor.equals(limits.governor())) {
                String available = dir + "/scaling_available_governors";
                if (sysfs.exists(available)) {
                    // a journal from another tree (or edited by hand) must not make the kernel take a governor it lacks
                    List<String> governors;
                    try {
                        governors = List.of(sysfs.read(available).trim().split("\\s+"));
                    } catch (IOException e) {
                        throw new FrequencyControlException("cannot read " + sysfs.display(available) + ": "
                                + KernelWrites.describe(e), e);
                    }
                    if (!governors.contains(limits.governor())) {
                        throw new FrequencyControlException("the journal's governor '" + limits.governor() + "' for "
                                + sysfs.display(dir) + " is not among its scaling_available_governors " + governors
                                + ": left at '" + governor + "'");
                    }
                }
                changes.add(KernelWrites.writeText(sysfs, dir + "/scaling_governor", limits.governor()));
            }
        }
    }
}
