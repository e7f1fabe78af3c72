package org.dfr.runtime;

import java.util.Arrays;

/** Doubles as their raw bits, for bit-for-bit assertions (NaN payloads and -0.0 included). */
public final class RawBits {

    private RawBits() {
    }

    /** The raw bits of each value; null for null (a copy that is not there). */
    public static long[] of(double[] values) {
        return values == null ? null : Arrays.stream(values).mapToLong(Double::doubleToRawLongBits).toArray();
    }
}
