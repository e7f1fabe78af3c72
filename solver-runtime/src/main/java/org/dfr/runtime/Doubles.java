package org.dfr.runtime;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/** double[] to bytes and back, for the replicated maps. */
public final class Doubles {
    private Doubles() {
    }

    public static byte[] toBytes(double[] values) {
        ByteBuffer buffer = ByteBuffer.allocate(values.length * Double.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        buffer.asDoubleBuffer().put(values);
        return buffer.array();
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
