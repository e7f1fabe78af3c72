package org.dfr.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Checkpoint copies through files in a shared directory ({@link SharedMemoryCopies}): what the holder takes is
 * bit for bit what the writer placed, and never a copy meant for another request.
 *
 * <pre>
 *   writer 0 --file w0/h1-p5--> holder 1       (both see the same directory: one machine)
 *   writer 0 --file w0/h2-p5--> holder 2       (holder 2 looks in another directory: another machine)
 * </pre>
 */
class SharedMemoryFilesTest {

    /** Slices of 7 doubles: the last one of a 40-double state is partial. */
    private static final int SLICE = 7;

    @TempDir
    Path dir;

    private static double[] state(long seed, int length) {
        SplittableRandom random = new SplittableRandom(seed);
        double[] s = new double[length];
        for (int i = 0; i < length; i++) {
            s[i] = random.nextDouble() - 0.5;
        }
        s[3] = Double.longBitsToDouble(0x7ff8_0000_0000_0abcL); // a NaN payload must survive too
        return s;
    }

    private static double[] joined(SharedMemoryCopies.Taken taken, int length) {
        double[] out = new double[length];
        int at = 0;
        for (double[] slice : taken.slices()) {
            System.arraycopy(slice, 0, out, at, slice.length);
            at += slice.length;
        }
        assertThat(at).isEqualTo(length);
        return out;
    }

    private static long[] bits(double[] values) {
        long[] out = new long[values.length];
        for (int i = 0; i < values.length; i++) {
            out[i] = Double.doubleToRawLongBits(values[i]);
        }
        return out;
    }

    private SharedMemoryCopies.Taken take(SharedMemoryCopies holder, int request, int length) {
        return holder.take(0, 5, 20, request, length, SLICE, double[]::new);
    }

    @Test
    void when_placed_then_theHolderTakesTheStateBitForBitInSlices() {
        double[] state = state(1, 40);
        try (SharedMemoryCopies writer = SharedMemoryCopies.in(dir, 0);
             SharedMemoryCopies holder = SharedMemoryCopies.in(dir, 1)) {
            assertThat(writer.place(1, 5, 20, 77, state)).isTrue();

            SharedMemoryCopies.Taken taken = take(holder, 77, 40);

            assertThat(taken.outcome()).isEqualTo(SharedMemoryCopies.Outcome.TAKEN);
            assertThat(taken.slices().length).isEqualTo(6);
            assertThat(bits(joined(taken, 40))).isEqualTo(bits(state));
        }
    }

    @Test
    void when_theFileHoldsAnotherRequest_then_theHolderTakesNothing() {
        try (SharedMemoryCopies writer = SharedMemoryCopies.in(dir, 0);
             SharedMemoryCopies holder = SharedMemoryCopies.in(dir, 1)) {
            writer.place(1, 5, 20, 78, state(1, 40));

            assertThat(take(holder, 77, 40).outcome()).isEqualTo(SharedMemoryCopies.Outcome.STALE);
            assertThat(holder.take(0, 5, 30, 78, 40, SLICE, double[]::new).outcome())
                    .as("the request's number alone is not enough: the checkpoint must match too")
                    .isEqualTo(SharedMemoryCopies.Outcome.STALE);
        }
    }

    @Test
    void when_theFileIsReusedForTheNextRequest_then_theHolderTakesTheNewState() {
        double[] first = state(1, 40);
        double[] second = state(2, 40);
        try (SharedMemoryCopies writer = SharedMemoryCopies.in(dir, 0);
             SharedMemoryCopies holder = SharedMemoryCopies.in(dir, 1)) {
            writer.place(1, 5, 20, 77, first);
            assertThat(bits(joined(take(holder, 77, 40), 40))).isEqualTo(bits(first));

            writer.place(1, 5, 20, 80, second);

            assertThat(bits(joined(take(holder, 80, 40), 40))).isEqualTo(bits(second));
        }
    }

    @Test
    void when_theWriterAbandonsACopy_then_aLateReaderKeepsItAndTheNextOneIsInANewFile() throws IOException {
        double[] abandoned = state(1, 40);
        double[] next = state(3, 40);
        try (SharedMemoryCopies writer = SharedMemoryCopies.in(dir, 0);
             SharedMemoryCopies holder = SharedMemoryCopies.in(dir, 1)) {
            writer.place(1, 5, 20, 77, abandoned);
            take(holder, 77, 40); // the holder has the file mapped

            writer.abandon(1, 5);
            writer.place(1, 5, 20, 81, next);

            assertThat(bits(joined(take(holder, 77, 40), 40)))
                    .as("the deleted file's contents, never overwritten: the mapping outlives the name")
                    .isEqualTo(bits(abandoned));
            assertThat(bits(joined(take(holder, 81, 40), 40))).isEqualTo(bits(next));
            assertThat(files()).containsExactly("w0/h1-p5");
        }
    }

    @Test
    void when_theHolderLooksInAnotherDirectory_then_theCopyIsAbsent(@TempDir Path otherMachine) {
        try (SharedMemoryCopies writer = SharedMemoryCopies.in(dir, 0);
             SharedMemoryCopies holder = SharedMemoryCopies.in(otherMachine, 2)) {
            writer.place(2, 5, 20, 77, state(1, 40));

            assertThat(holder.take(0, 5, 20, 77, 40, SLICE, double[]::new).outcome())
                    .isEqualTo(SharedMemoryCopies.Outcome.ABSENT);
        }
    }

    @Test
    void when_aHolderIsElsewhere_then_itsFilesGoAndNoMoreAreTried() throws IOException {
        try (SharedMemoryCopies writer = SharedMemoryCopies.in(dir, 0)) {
            writer.place(2, 5, 20, 77, state(1, 40));
            writer.place(1, 5, 20, 78, state(1, 40));

            writer.elsewhere(2);

            assertThat(writer.mayPlaceFor(2)).isFalse();
            assertThat(writer.mayPlaceFor(1)).isTrue();
            assertThat(files()).containsExactly("w0/h1-p5");
        }
    }

    @Test
    void when_closed_then_theWritersFilesAreDeleted() throws IOException {
        SharedMemoryCopies writer = SharedMemoryCopies.in(dir, 0);
        writer.place(1, 5, 20, 77, state(1, 40));
        writer.place(2, 6, 20, 78, state(2, 40));
        assertThat(files()).containsExactlyInAnyOrder("w0/h1-p5", "w0/h2-p6");

        writer.close();

        try (Stream<Path> left = Files.list(dir)) {
            assertThat(left).isEmpty();
        }
    }

    @Test
    void when_aPartitionsCopiesGoToOtherHolders_then_theOldHoldersFilesAreDeleted() throws IOException {
        try (SharedMemoryCopies writer = SharedMemoryCopies.in(dir, 0)) {
            writer.place(1, 5, 20, 77, state(1, 40));
            writer.place(2, 5, 20, 78, state(1, 40));
            writer.place(1, 6, 20, 79, state(1, 40));

            writer.retain(5, List.of(2, 3)); // rank 1 died: partition 5's copies went to 2 and 3

            assertThat(files()).containsExactly("w0/h1-p6", "w0/h2-p5");
        }
    }

    @Test
    void when_aWriterDied_then_aSurvivorDeletesItsFilesAndAHolderStillHasWhatItTook() throws IOException {
        double[] state = state(1, 40);
        SharedMemoryCopies dead = SharedMemoryCopies.in(dir, 0); // a SIGKILLed process never closes
        try (SharedMemoryCopies holder = SharedMemoryCopies.in(dir, 1);
             SharedMemoryCopies survivor = SharedMemoryCopies.in(dir, 2)) {
            dead.place(1, 5, 20, 77, state);
            SharedMemoryCopies.Taken taken = take(holder, 77, 40);

            survivor.forgetWriters(List.of(0));

            assertThat(files()).isEmpty();
            assertThat(bits(joined(taken, 40))).isEqualTo(bits(state));
        }
    }

    @Test
    void when_aRankStartsAgain_then_itsEarlierFilesAreDeleted() throws IOException {
        SharedMemoryCopies.in(dir, 0).place(1, 5, 20, 77, state(1, 40));

        try (SharedMemoryCopies again = SharedMemoryCopies.in(dir, 0)) {
            assertThat(files()).isEmpty();
        }
    }

    @Test
    void when_noFileCanBeMade_then_noMoreCopiesAreTried() throws IOException {
        Files.writeString(dir.resolve("w0"), "not a directory"); // as a full tmpfs, every file fails
        try (SharedMemoryCopies writer = SharedMemoryCopies.in(dir, 0)) {
            assertThat(writer.mayPlaceFor(1)).isTrue();

            assertThat(writer.place(1, 5, 20, 77, state(1, 40))).isFalse();

            assertThat(writer.mayPlaceFor(1)).isFalse();
            assertThat(writer.mayPlaceFor(2)).isFalse();
        }
    }

    @Test
    void when_thereIsNoDirectory_then_nothingIsPlaced() {
        assertThat(SharedMemoryCopies.in(null, 0)).isSameAs(SharedMemoryCopies.NONE);
        assertThat(SharedMemoryCopies.in(dir.resolve("missing"), 0)).isSameAs(SharedMemoryCopies.NONE);
        assertThat(SharedMemoryCopies.NONE.place(1, 5, 20, 77, state(1, 40))).isFalse();
        assertThat(SharedMemoryCopies.NONE.take(0, 5, 20, 77, 40, SLICE, double[]::new).outcome())
                .isEqualTo(SharedMemoryCopies.Outcome.ABSENT);
    }

    private List<String> files() throws IOException {
        try (Stream<Path> all = Files.walk(dir)) {
            return all.filter(Files::isRegularFile).map(p -> dir.relativize(p).toString()).sorted().toList();
        }
    }
}
