package org.dfr.harness;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import org.dfr.recovery.IdleRankListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The launcher's side of {@link CappingLines}: passes each rank's idle and busy lines to the one
 * listener that caps the hosts, and answers a busy line once that listener returned (the host then
 * runs at full speed). Called from each rank's output pump; the listener is thread-safe.
 */
final class CappingRelay {

    private static final Logger LOG = LoggerFactory.getLogger(CappingRelay.class);

    private final IdleRankListener hosts;
    private final boolean answersBusy;

    /**
     * @param hosts       receives every idle and busy call
     * @param answersBusy whether the ranks wait for an answer to their busy lines (they do when hosts are capped;
     *                    otherwise nothing reads their stdin, and answers would fill its pipe)
     */
    CappingRelay(IdleRankListener hosts, boolean answersBusy) {
        this.hosts = hosts;
        this.answersBusy = answersBusy;
    }

    /** {@code rank}'s process was SIGKILLed: its host's other ranks decide alone whether the host is idle. */
    void rankGone(int rank) {
        hosts.rankGone(rank);
    }

    /**
     * Handles one protocol line printed by {@code rank}.
     *
     * @param toRank the rank's stdin, for the answer to a busy line
     */
    void onLine(int rank, String line, OutputStream toRank) {
        CappingLines.Event e = CappingLines.parse(line).orElse(null);
        if (e == null || e.rank() != rank) {
            // a rank speaks only for itself; anything else is a garbled line
            LOG.warn("rank {}: ignoring the capping line '{}'", rank, line);
            return;
        }
        if (e.kind() == CappingLines.Kind.IDLE) {
            hosts.rankIdle(rank);
            return;
        }
        hosts.rankBusy(rank);
        if (!answersBusy) {
            return;
        }
        try {
            toRank.write((CappingLines.ready(e.seq()) + "\n").getBytes(StandardCharsets.UTF_8));
            toRank.flush();
        } catch (IOException ex) {
            LOG.debug("rank {}: cannot answer its busy line (the process is gone): {}", rank, ex.getMessage());
        }
    }
}
