package org.dfr.runtime.net;

/**
 * Identifies one expected message. Every message carries the epoch it belongs to, so that a
 * message of an abandoned epoch can never satisfy a wait of a newer one.
 */
public record MessageKey(int epoch, MessageKind kind, int iteration, int a, int b) {
}
