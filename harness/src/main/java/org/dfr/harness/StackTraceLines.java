package org.dfr.harness;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Shortens the stack traces in a rank's last lines for the launcher's error message. The rank's whole
 * output, traces included, was already relayed line by line (and a rank's own log keeps it); quoting
 * every frame again made the console show each trace twice.
 */
final class StackTraceLines {

    /** A frame ({@code at ...}) or the {@code ... N more} that ends a cause's frames. */
    private static final Pattern FRAME = Pattern.compile("^\\s+(at |\\.\\.\\. \\d+ more)");

    private StackTraceLines() {
    }

    /**
     * {@code lines} with every run of frames cut to its first frame (where the exception was thrown)
     * and a line saying how many were left out.
     */
    static List<String> condensed(List<String> lines) {
        List<String> out = new ArrayList<>();
        int skipped = 0;
        boolean inFrames = false;
        for (String line : lines) {
            boolean frame = FRAME.matcher(line).find();
            if (frame && inFrames) {
                skipped++;
                continue;
            }
            if (skipped > 0) {
                out.add(leftOut(skipped));
                skipped = 0;
            }
            out.add(line);
            inFrames = frame;
        }
        if (skipped > 0) {
            out.add(leftOut(skipped));
        }
        return out;
    }

    private static String leftOut(int frames) {
        return "\t(" + frames + " more line" + (frames == 1 ? "" : "s") + " of the trace above, in the rank's output)";
    }
}
