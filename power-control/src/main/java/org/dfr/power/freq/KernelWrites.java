package org.dfr.power.freq;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.dfr.power.sysfs.Sysfs;

/**
 * Writes a cpufreq attribute and reads it back. The kernel clamps silently, so a read-back that differs
 * from the written value is accepted only when it is what the kernel's clamping rule yields.
 */
final class KernelWrites {

    private KernelWrites() {
    }

    /**
     * Writes {@code valueKHz} to {@code file}, accepting a read-back of {@code valueKHz} or of the value
     * clamped to {@code [lowKHz, highKHz]}.
     */
    static FrequencyChange writeKHz(Sysfs sysfs, String file, long valueKHz, long lowKHz, long highKHz)
            throws FrequencyControlException {
        String before = readOrUnknown(sysfs, file);
        write(sysfs, file, Long.toString(valueKHz));
        long back;
        try {
            back = sysfs.readLong(file);
        } catch (IOException e) {
            throw new FrequencyControlException("wrote " + valueKHz + " to " + sysfs.display(file)
                    + " but cannot read it back: " + describe(e), e);
        }
        long clamped = Math.max(lowKHz, Math.min(highKHz, valueKHz));
        if (back != valueKHz && back != clamped) {
            throw new FrequencyControlException("wrote " + valueKHz + " kHz to " + sysfs.display(file)
                    + " but it reads back " + back + " kHz; the kernel would clamp to " + clamped
                    + " kHz (range " + lowKHz + ".." + highKHz + "), so another limit is in force");
        }
        return new FrequencyChange(sysfs.display(file), before, Long.toString(valueKHz), Long.toString(back));
    }

    /** Writes a text attribute (a governor) and requires it to read back unchanged. */
    static FrequencyChange writeText(Sysfs sysfs, String file, String value) throws FrequencyControlException {
        String before = readOrUnknown(sysfs, file);
        write(sysfs, file, value);
        String back = readOrUnknown(sysfs, file);
        if (!back.equals(value)) {
            throw new FrequencyControlException("wrote '" + value + "' to " + sysfs.display(file)
                    + " but it reads back '" + back + "'");
        }
        return new FrequencyChange(sysfs.display(file), before, value, back);
    }

    private static void write(Sysfs sysfs, String file, String value) throws FrequencyControlException {
        try {
            sysfs.write(file, value);
        } catch (IOException e) {
            throw new FrequencyControlException("cannot write " + value + " to " + sysfs.display(file) + ": "
                    + describe(e), e);
        }
    }

    private static String readOrUnknown(Sysfs sysfs, String file) {
        try {
            return sysfs.read(file);
        } catch (IOException e) {
            return "?";
        }
    }

    static String describe(IOException e) {
        if (e instanceof AccessDeniedException) {
            return "permission denied (cpufreq writes need root and a writable /sys)";
        }
        if (e instanceof NoSuchFileException n) {
            // name the file: "cannot read .../policy0: no such file" left the user to guess which of six
            return n.getFile() == null ? "no such file" : "no such file " + Path.of(n.getFile()).getFileName();
        }
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }
}
