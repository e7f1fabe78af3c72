package org.dfr.kernels;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.security.MessageDigest;
import java.util.HexFormat;

/** A plain SHA-256 of doubles fed one by one, little-endian, for the naive implementations of the tests. */
public final class Sha {
    private final MessageDigest sha;
    private final ByteBuffer b = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);

    public Sha() {
        try {
            sha = MessageDigest.getInstance("SHA-256");
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    public void add(double v) {
        b.clear();
        b.putDouble(v);
        sha.update(b.array());
    }

    public String hex() {
        return HexFormat.of().formatHex(sha.digest());
    }
}
