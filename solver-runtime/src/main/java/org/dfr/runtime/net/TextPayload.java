package org.dfr.runtime.net;

import java.nio.charset.StandardCharsets;

/**
 * Text (protocol JSON) carried in a data-plane payload: its UTF-8 bytes, four per double, each
 * group as an int converted to a double. Every int is exact as a double, so the text survives any
 * double handling bit for bit (raw long bits could meet NaN canonicalisation); the size costs
 * nothing at the few kilobytes of a recovery message.
 */
public final class TextPayload {

    private TextPayload() {
    }

    /** The payload carrying {@code text}: its byte count first, then the bytes. */
    public static double[] encode(String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        double[] out = new double[1 + (bytes.length + 3) / 4];
        out[0] = bytes.length;
        for (int i = 0; i < bytes.length; i++) {
            int word = 1 + i / 4;
            int shift = 8 * (i % 4);
            out[word] = (double) ((int) out[word] | ((bytes[i] & 0xff) << shift));
        }
        return out;
    }

    /** The text {@link #encode} put into {@code payload}. */
    public static String decode(double[] payload) {
        if (payload.length == 0) {
            throw new IllegalArgumentException("empty text payload");
        }
        int length = (int) payload[0];
        if (length < 0 || (length + 3) / 4 != payload.length - 1) {
            throw new IllegalArgumentException("text payload of " + payload.length + " doubles cannot hold " + length + " bytes");
        }
        byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++) {
            bytes[i] = (byte) ((int) payload[1 + i / 4] >>> (8 * (i % 4)));
        }
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
