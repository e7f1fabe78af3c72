package org.dfr.runtime;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.dfr.runtime.net.MessageKey;
import org.dfr.runtime.net.MessageKind;
import org.dfr.runtime.net.TextPayload;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The recovery messages that arrived over the data plane: statuses ({@link MessageKind#STATUS}, per
 * epoch and sending rank) and committed directives ({@link MessageKind#DIRECTIVE}, per epoch they
 * open), as their protocol JSON. Every arrival bumps the {@link ControlBoard}'s version, so the
 * recovery's waits (which already wake on board changes) see it at once.
 */
public final class RecoveryInbox {

    private static final Logger LOG = LoggerFactory.getLogger(RecoveryInbox.class);

    private final ControlBoard control;
    private final Map<Long, String> statuses = new ConcurrentHashMap<>();
    private final Map<Integer, String> directives = new ConcurrentHashMap<>();

    public RecoveryInbox(ControlBoard control) {
        this.control = control;
    }

    /** Stores a {@link MessageKind#STATUS} or {@link MessageKind#DIRECTIVE} message. */
    void accept(MessageKey key, double[] payload) {
        String text;
        try {
            text = TextPayload.decode(payload);
        } catch (IllegalArgumentException e) {
            LOG.warn("dropped a malformed {} message: {}", key, e.getMessage());
            return;
        }
        if (key.kind() == MessageKind.STATUS) {
            statuses.put(statusKey(key.epoch(), key.a()), text);
        } else if (key.kind() == MessageKind.DIRECTIVE) {
            directives.putIfAbsent(key.epoch(), text);
        } else {
            return;
        }
        control.bump();
    }

    /** The status rank {@code rank} reported when it left {@code epoch}, or null. */
    public String status(int epoch, int rank) {
        return statuses.get(statusKey(epoch, rank));
    }

    /** The committed directive that opens {@code epoch}, or null. */
    public String directive(int epoch) {
        return directives.get(epoch);
    }

    /** Forgets the messages of epochs before {@code epoch} (they can no longer matter). */
    public void forgetBefore(int epoch) {
        statuses.keySet().removeIf(k -> (int) (k >>> 32) < epoch);
        directives.keySet().removeIf(e -> e < epoch);
    }

    private static long statusKey(int epoch, int rank) {
        return ((long) epoch << 32) | (rank & 0xffffffffL);
    }
}
