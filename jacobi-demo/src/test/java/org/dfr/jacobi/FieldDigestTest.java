package org.dfr.jacobi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.security.MessageDigest;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FieldDigestTest {

    @Test
    void when_one_cell_then_sha256_of_its_eight_little_endian_bytes() throws Exception {
        JacobiProblem problem = new JacobiProblem(1, 1);
        // (31 + 17) % 101 / 100.0 = 0.48
        byte[] bytes = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putDouble(0.48).array();
        // the little-endian layout puts the low mantissa byte first and sign/exponent last
        assertThat(bytes[7]).isEqualTo((byte) (Double.doubleToRawLongBits(0.48) >>> 56));
        String expected = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));

        assertThat(new SequentialJacobi(problem).digest()).isEqualTo(expected);
        assertThat(expected).matches("[0-9a-f]{64}");
    }

    @Test
    void when_several_cells_then_row_major_y_outer_interior_only() throws Exception {
        JacobiProblem problem = new JacobiProblem(3, 2);
        ByteBuffer bytes = ByteBuffer.allocate(6 * 8).order(ByteOrder.LITTLE_ENDIAN);
        for (int y = 1; y <= 2; y++) {
            for (int x = 1; x <= 3; x++) {
                bytes.putDouble(((31 * x + 17 * y) % 101) / 100.0);
            }
        }
        String expected = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes.array()));
        assertThat(FieldDigest.ofField(problem, SequentialJacobi.initialField(problem))).isEqualTo(expected);
    }

    @Test
    void when_from_partition_map_then_same_as_from_global_field() {
        JacobiProblem problem = new JacobiProblem(11, 7);
        BlockDecomposition d = new BlockDecomposition(problem, 3, 2);
        JacobiKernel kernel = new JacobiKernel(d);
        Map<Integer, double[]> states = new HashMap<>();
        for (int p = 0; p < d.partitionCount(); p++) {
            states.put(p, kernel.initialState(p));
        }
        assertThat(FieldDigest.ofPartitions(d, states))
                .isEqualTo(FieldDigest.ofField(problem, SequentialJacobi.initialField(problem)));
    }

    @Test
    void when_one_bit_differs_then_digest_differs() {
        JacobiProblem problem = new JacobiProblem(4, 4);
        double[] field = SequentialJacobi.initialField(problem);
        String before = FieldDigest.ofField(problem, field);
        field[2 * 6 + 3] = Math.nextUp(field[2 * 6 + 3]);
        assertThat(FieldDigest.ofField(problem, field)).isNotEqualTo(before);
    }

    @Test
    void when_boundary_differs_then_digest_unchanged() {
        JacobiProblem problem = new JacobiProblem(4, 4);
        double[] field = SequentialJacobi.initialField(problem);
        String before = FieldDigest.ofField(problem, field);
        field[0] = 99;
        field[6] = 99;
        assertThat(FieldDigest.ofField(problem, field)).isEqualTo(before);
    }

    @Test
    void when_partition_missing_or_wrong_length_then_rejected_naming_it() {
        BlockDecomposition d = new BlockDecomposition(new JacobiProblem(4, 4), 2, 1);
        JacobiKernel kernel = new JacobiKernel(d);
        Map<Integer, double[]> states = new HashMap<>();
        states.put(0, kernel.initialState(0));
        assertThatThrownBy(() -> FieldDigest.ofPartitions(d, states))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("partition 1");
        states.put(1, new double[5]);
        assertThatThrownBy(() -> FieldDigest.ofPartitions(d, states))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("partition 1")
                .hasMessageContaining("24");
        assertThatThrownBy(() -> FieldDigest.ofField(new JacobiProblem(4, 4), new double[3]))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("36");
    }
}
