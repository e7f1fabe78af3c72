package org.dfr.kernels.graph;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** SHA-256 of {@code x} as little-endian IEEE-754 doubles in vertex order, fed in runs. */
final class GraphDigest {

    private final MessageDigest sha;
    private final ByteBuffer bytes = ByteBuffer.allocate(8 * 4096).order(ByteOrder.LITTLE_ENDIAN);

    GraphDigest() {
        try {
            sha = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform must provide SHA-256", e);
        }
    }

    void add(double[] values, int offset, int count) {
        int at = offset;
        int end = offset + count;
        while (at < end) {
            int chunk = Math.min(4096, end - at);
            bytes.clear();
            bytes.asDoubleBuffer().put(values, at, chunk);
            bytes.limit(chunk * 8);
            sha.update(bytes);
            at += chunk;
        }
    }

    String hex() {
        return HexFormat.of().formatHex(sha.digest());
    }
}
