package org.dfr.power.freq;

/**
 * One attribute changed by a cap or a restore.
 *
 * @param file     the absolute path of the attribute
 * @param from     the value before
 * @param to       the value written
 * @param readBack the value the kernel reports after the write (it may clamp)
 */
public record FrequencyChange(String file, String from, String to, String readBack) {

    @Override
    public String toString() {
        String clamped = readBack.equals(to) ? "" : " (kernel clamped to " + readBack + ")";
        return file + ": " + from + " -> " + to + clamped;
    }
}
