package org.dfr.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The copies a holder keeps: slices of one request only, the bound per partition, and dead writers' orphans. */
class HeldReplicasTest {

    private static final int SLICE = 4;

    private final HeldReplicas held = new HeldReplicas(SLICE);

    /** Sends a copy of {@code length} doubles (all {@code value}) as request {@code request} from {@code writer}. */
    private int copy(int iteration, int partition, int writer, int request, int length, double value) {
        int done = held.accept(iteration, partition, 0, request, new double[] {length, writer});
        for (int slice = 1; (slice - 1) * SLICE < length; slice++) {
            double[] part = new double[Math.min(SLICE, length - (slice - 1) * SLICE)];
            Arrays.fill(part, value);
            done = held.accept(iteration, partition, slice, request, part);
        }
        return done;
    }

    @Test
    void when_aSliceOfAnotherRequestArrives_then_itIsIgnoredAndTheCopyCompletesOnlyWithItsOwnSlices() {
        held.accept(4, 0, 0, 11, new double[] {6, 3});
        assertThat(held.accept(4, 0, 1, 10, new double[] {9, 9, 9, 9})).as("a late slice of request 10").isEqualTo(-1);
        assertThat(held.accept(4, 0, 1, 11, new double[] {1, 1, 1, 1})).isEqualTo(-1);
        assertThat(held.accept(4, 0, 2, 10, new double[] {9, 9})).isEqualTo(-1);
        assertThat(held.has(4, 0)).isFalse();

        assertThat(held.accept(4, 0, 2, 11, new double[] {2, 2})).as("the writer, to acknowledge").isEqualTo(3);

        assertThat(held.joined(4, 0)).containsExactly(1, 1, 1, 1, 2, 2);
    }

    @Test
    void when_aThirdCopyOfAPartitionCompletes_then_theOldestIsDropped() {
        copy(4, 0, 3, 1, 5, 4);
        copy(8, 0, 3, 2, 5, 8);
        copy(12, 0, 3, 3, 5, 12);

        assertThat(held.has(4, 0)).isFalse();
        assertThat(held.joined(8, 0)).containsOnly(8.0);
        assertThat(held.copies()).isEqualTo(2);
    }

    @Test
    void when_aWriterDied_then_itsCopiesAfterTheCommittedCheckpointAreDroppedAndTheCommittedOneStays() {
        copy(8, 7, 7, 1, 5, 8);           // committed
        copy(12, 7, 7, 2, 5, 12);         // in flight when rank 7 died
        held.accept(16, 7, 0, 3, new double[] {5, 7}); // cut short
        copy(12, 3, 3, 4, 5, 12);         // a live writer's

        assertThat(held.dropOrphans(List.of(7, 5), 8)).isEqualTo(2);

        assertThat(held.has(8, 7)).isTrue();
        assertThat(held.has(12, 7)).isFalse();
        assertThat(held.arriving()).isZero();
        assertThat(held.has(12, 3)).isTrue();
        // the adopter's next copy no longer pushes out the committed one
        copy(16, 7, 0, 5, 5, 16);
        assertThat(held.has(8, 7)).isTrue();
    }

    @Test
    void when_aMappedCopysFileWasWrittenAgain_then_itIsDroppedBeforeTheOldestValidCopy(@TempDir Path shm) {
        try (SharedMemoryCopies writer = SharedMemoryCopies.in(shm, 3);
             SharedMemoryCopies holder = SharedMemoryCopies.in(shm, 1)) {
            SharedMemoryCopies.Placed committed = writer.place(0, 8, 81, new double[] {8, 8}, List.of(1));
            held.acceptShared(8, 0, 3, holder.take(3, 0, 8, committed, 2).copy());
            // taken late, after the writer gave it up: its file is free, and written again for another holder
            SharedMemoryCopies.Placed late = writer.place(0, 12, 82, new double[] {12, 12}, List.of(1));
            held.acceptShared(12, 0, 3, holder.take(3, 0, 12, late, 2).copy());
            writer.notTaken(0, late, 1);
            writer.place(0, 13, 83, new double[] {13, 13}, List.of(2));
            assertThat(held.has(12, 0)).isFalse();

            copy(16, 0, 3, 4, 2, 16);

            assertThat(held.joined(8, 0)).as("the committed copy stays").containsExactly(8, 8);
            assertThat(held.joined(16, 0)).containsExactly(16, 16);
            assertThat(held.copies()).isEqualTo(2);
        }
    }
}
