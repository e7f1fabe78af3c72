package org.dfr.runtime;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/** double[] to bytes and back, for the replicated maps. */
public final class Doubles {
    private Doubles() {
    }

    public static byte[] toBytes(double[] values) {
        byte[] bytes = new byte[values.length * Double.BYTES];
        toBytes(values, bytes);
        return bytes;
    }

    /** Writes {@code values} into {@code bytes}, which holds exactly as many bytes. */
    public static void toBytes(double[] values, byte[] bytes) {
        if (bytes.length != values.length * Double.BYTES) {
            throw new IllegalArgumentException(values.length + " doubles need " + values.length * Double.BYTES
                    + " bytes, not " + bytes.length);
        }
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).asDoubleBuffer().put(values);
    }

    public static double[] fromBytes(byte[] bytes) {
        double[] values = new double[bytes.length / Double.BYTES];
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).asDoubleBuffer().get(values);
        return values;
    }
}
