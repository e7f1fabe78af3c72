package org.dfr.harness;

import java.util.Optional;

/**
 * The lines through which rank processes tell a local launcher when they idle and when they have work
 * again: it records them for the power timeline, and with {@code --cap-idle-hosts} caps idle hosts (only
 * then does a rank wait for the answer to its busy line). The ranks of one host live in different JVMs, so one
 * {@link org.dfr.recovery.power.IdleHostCapping} in the launcher decides for every host, as it does
 * for the members of an embedded run:
 *
 * <pre>
 * rank  -> launcher (stdout)  {@value #PREFIX}idle R          rank R waits for the resume barrier
 * rank  -> launcher (stdout)  {@value #PREFIX}busy R SEQ      rank R is about to compute
 * launcher -> rank  (stdin)   {@value #PREFIX}ready SEQ       R's host runs at full speed again
 * </pre>
 *
 * A busy rank computes only after its {@code ready}, so it never computes on a capped host.
 */
final class CappingLines {

    static final String PREFIX = "@dfr-capping ";

    /** What a line says. */
    enum Kind { IDLE, BUSY, READY }

    /** A parsed line: {@code rank} is -1 for ready, {@code seq} -1 for idle. */
    record Event(Kind kind, int rank, long seq) {
    }

    private CappingLines() {
    }

    static String idle(int rank) {
        return PREFIX + "idle " + rank;
    }

    static String busy(int rank, long seq) {
        return PREFIX + "busy " + rank + " " + seq;
    }

    static String ready(long seq) {
        return PREFIX + "ready " + seq;
    }

    /** The event of a protocol line, or empty for any other line (also a garbled one). */
    static Optional<Event> parse(String line) {
        if (line == null || !line.startsWith(PREFIX)) {
            return Optional.empty();
        }
        String[] f = line.substring(PREFIX.length()).trim().split(" ");
        try {
            if (f[0].equals("idle") && f.length == 2) {
                return Optional.of(new Event(Kind.IDLE, Integer.parseInt(f[1]), -1));
            }
            if (f[0].equals("busy") && f.length == 3) {
                return Optional.of(new Event(Kind.BUSY, Integer.parseInt(f[1]), Long.parseLong(f[2])));
            }
            if (f[0].equals("ready") && f.length == 2) {
                return Optional.of(new Event(Kind.READY, -1, Long.parseLong(f[1])));
            }
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
        return Optional.empty();
    }
}
