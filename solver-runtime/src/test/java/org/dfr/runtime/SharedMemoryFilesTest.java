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
 * Checkpoint copies through files in a shared directory ({@link SharedMemoryCopies}): what a holder keeps is bit
 * for bit what the writer placed, never a copy meant for another notice, and a file is never written again while
 * a holder holds it.
 *
 * <pre>
 *   writer 0 --file w0/p5-s0--> holders 1 and 3 map the same file    (they see the same directory: one machine)
 *   writer 0 --file w0/p5-s0--> holder 2 finds nothing               (another directory: another machine)
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

    private static SharedMemoryCopy taken(SharedMemoryCopies holder, int iteration, SharedMemoryCopies.Placed placed) {
        SharedMemoryCopies.Taken taken = holder.take(0, 5, iteration, placed, 40);
        assertThat(taken.outcome()).isEqualTo(SharedMemoryCopies.Outcome.TAKEN);
        return taken.copy();
    }

    @Test
    void when_placedForTwoHolders_then_bothMapOneFileAndReadTheStateBitForBit() throws IOException {
        double[] state = state(1, 40);
        try (SharedMemoryCopies writer = SharedMemoryCopies.in(dir, 0);
             SharedMemoryCopies one = SharedMemoryCopies.in(dir, 1);
             SharedMemoryCopies three = SharedMemoryCopies.in(dir, 3)) {
            SharedMemoryCopies.Placed placed = writer.place(5, 20, 77, state, List.of(1, 3));

            SharedMemoryCopy first = taken(one, 20, placed);
            SharedMemoryCopy second = taken(three, 20, placed);

            assertThat(files()).containsExactly("w0/p5-s0");
            assertThat(RawBits.of(first.read())).isEqualTo(RawBits.of(state));
            assertThat(RawBits.of(second.read())).isEqualTo(RawBits.of(state));
            double[][] slices = first.readSlices(SLICE);
            assertThat(slices).hasNumberOfRows(6);
            assertThat(slices[5]).hasSize(5);
            assertThat(Double.doubleToRawLongBits(slices[0][3])).isEqualTo(0x7ff8_0000_0000_0abcL);
        }
    }

    @Test
    void when_theFileHoldsAnotherCopy_then_theHolderTakesNothing() {
        try (SharedMemoryCopies writer = SharedMemoryCopies.in(dir, 0);
             SharedMemoryCopies holder = SharedMemoryCopies.in(dir, 1)) {
            SharedMemoryCopies.Placed placed = writer.place(5, 20, 78, state(1, 40), List.of(1));

            assertThat(holder.take(0, 5, 20, new SharedMemoryCopies.Placed(placed.slot(), 77), 40).outcome())
                    .isEqualTo(SharedMemoryCopies.Outcome.STALE);
            assertThat(holder.take(0, 5, 30, placed, 40).outcome())
                    .as("the id alone is not enough: the checkpoint must match too")
                    .isEqualTo(SharedMemoryCopies.Outcome.STALE);
        }
    }

    @Test
    void when_aHolderHoldsAFile_then_theNextCheckpointGoesIntoAnotherAndTheReleasedOneIsReused() throws IOException {
        double[] first = state(1, 40);
        double[] second = state(2, 40);
        double[] third = state(3, 40);
        try (SharedMemoryCopies writer = SharedMemoryCopies.in(dir, 0);
             SharedMemoryCopies holder = SharedMemoryCopies.in(dir, 1)) {
            SharedMemoryCopy held20 = taken(holder, 20, writer.place(5, 20, 77, first, List.of(1)));
            SharedMemoryCopy held30 = taken(holder, 30, writer.place(5, 30, 78, second, List.of(1)));
            assertThat(files()).containsExactly("w0/p5-s0", "w0/p5-s1");
            assertThat(RawBits.of(held20.read())).as("not written again while held").isEqualTo(RawBits.of(first));

            writer.release(5, 20, 1); // the writer dropped checkpoint 20
            SharedMemoryCopies.Placed placed = writer.place(5, 40, 79, third, List.of(1));

            assertThat(placed.slot()).isZero();
            assertThat(files()).containsExactly("w0/p5-s0", "w0/p5-s1");
            assertThat(RawBits.of(taken(holder, 40, placed).read())).isEqualTo(RawBits.of(third));
            assertThat(held20.read()).as("a copy whose file was written again reads as gone").isNull();
            assertThat(held20.intact()).isFalse();
            assertThat(RawBits.of(held30.read())).isEqualTo(RawBits.of(second));
        }
    }

    @Test
    void when_aHolderTakesAThirdCheckpoint_then_theFileOfItsOldestIsFreeAgain() throws IOException {
        try (SharedMemoryCopies writer = SharedMemoryCopies.in(dir, 0)) {
            writer.taken(5, writer.place(5, 20, 77, state(1, 40), List.of(1)), 1);
            writer.taken(5, writer.place(5, 30, 78, state(2, 40), List.of(1)), 1);
            SharedMemoryCopies.Placed third = writer.place(5, 40, 79, state(3, 40), List.of(1));
            assertThat(writer.place(5, 45, 90, state(3, 40), List.of(2))).as("all three held until it took 40").isNull();

            writer.taken(5, third, 1); // the holder keeps 30 and 40 only

            assertThat(writer.place(5, 50, 80, state(4, 40), List.of(1)).slot()).isZero();
            assertThat(files()).containsExactly("w0/p5-s0", "w0/p5-s1", "w0/p5-s2");
        }
    }

    @Test
    void when_everyFileIsHeld_then_nothingIsPlaced() {
        try (SharedMemoryCopies writer = SharedMemoryCopies.in(dir, 0)) {
            // three holders, one checkpoint each: none of them has more than two
            assertThat(writer.place(5, 20, 77, state(1, 40), List.of(1))).isNotNull();
            assertThat(writer.place(5, 30, 78, state(2, 40), List.of(2))).isNotNull();
            assertThat(writer.place(5, 40, 79, state(3, 40), List.of(3))).isNotNull();

            assertThat(writer.place(5, 50, 80, state(4, 40), List.of(4))).isNull();

            writer.forgetRanks(List.of(2)); // a dead holder holds nothing
            assertThat(writer.place(5, 50, 81, state(4, 40), List.of(4)).slot()).isEqualTo(1);
        }
    }

    @Test
    void when_aCheckpointIsPlacedAgain_then_theFileItsHoldersHoldIsKeptUntilTheyTookTheNewOne() throws IOException {
        double[] state = state(1, 40);
        try (SharedMemoryCopies writer = SharedMemoryCopies.in(dir, 0);
             SharedMemoryCopies holder = SharedMemoryCopies.in(dir, 1)) {
            SharedMemoryCopy survivor = taken(holder, 20, writer.place(5, 20, 77, state, List.of(1, 2)));
            writer.forgetRanks(List.of(2)); // holder 2 died: the committed checkpoint 20 is repaired on 1 and 3

            SharedMemoryCopies.Placed again = writer.place(5, 20, 78, state, List.of(1, 3));

            assertThat(again.slot()).as("not the file holder 1 still holds").isEqualTo(1);
            assertThat(RawBits.of(survivor.read())).as("the surviving copy, while the repair is on its way")
                    .isEqualTo(RawBits.of(state));
            writer.notTaken(5, again, 3);
            writer.taken(5, again, 1); // holder 1 replaced its copy: the old file is free
            assertThat(writer.place(5, 30, 79, state(2, 40), List.of(1, 3)).slot()).isZero();
            assertThat(files()).containsExactly("w0/p5-s0", "w0/p5-s1");
        }
    }

    @Test
    void when_theHolderLooksInAnotherDirectory_then_theCopyIsAbsent(@TempDir Path otherMachine) {
        try (SharedMemoryCopies writer = SharedMemoryCopies.in(dir, 0);
             SharedMemoryCopies holder = SharedMemoryCopies.in(otherMachine, 2)) {
            SharedMemoryCopies.Placed placed = writer.place(5, 20, 77, state(1, 40), List.of(2));

            assertThat(holder.take(0, 5, 20, placed, 40).outcome()).isEqualTo(SharedMemoryCopies.Outcome.ABSENT);
        }
    }

    @Test
    void when_aHolderIsElsewhere_then_noMoreAreTriedAndTheFileItDidNotTakeIsFree() {
        try (SharedMemoryCopies writer = SharedMemoryCopies.in(dir, 0)) {
            writer.taken(5, writer.place(5, 10, 76, state(1, 40), List.of(2)), 2);
            SharedMemoryCopies.Placed missed = writer.place(5, 20, 77, state(1, 40), List.of(2));

            writer.notTaken(5, missed, 2);
            writer.elsewhere(2);

            assertThat(writer.mayPlaceFor(2)).isFalse();
            assertThat(writer.mayPlaceFor(1)).isTrue();
            assertThat(writer.place(5, 30, 78, state(2, 40), List.of(1)).slot())
                    .as("the file of 10 stays held: a same-machine holder that failed once still maps it")
                    .isEqualTo(1);
        }
    }

    @Test
    void when_closed_then_theWritersFilesAreDeleted() throws IOException {
        SharedMemoryCopies writer = SharedMemoryCopies.in(dir, 0);
        writer.place(5, 20, 77, state(1, 40), List.of(1));
        writer.place(6, 20, 78, state(2, 40), List.of(2));
        assertThat(files()).containsExactlyInAnyOrder("w0/p5-s0", "w0/p6-s0");

        writer.close();

        try (Stream<Path> left = Files.list(dir)) {
            assertThat(left).isEmpty();
        }
        assertThat(writer.place(5, 30, 79, state(3, 40), List.of(1))).as("no file after close").isNull();
    }

    @Test
    void when_aWriterDied_then_aSurvivorDeletesItsFilesAndAHolderStillReadsItsCopy() throws IOException {
        double[] state = state(1, 40);
        SharedMemoryCopies dead = SharedMemoryCopies.in(dir, 0); // a SIGKILLed process never closes
        try (SharedMemoryCopies holder = SharedMemoryCopies.in(dir, 1);
             SharedMemoryCopies survivor = SharedMemoryCopies.in(dir, 2)) {
            SharedMemoryCopy copy = taken(holder, 20, dead.place(5, 20, 77, state, List.of(1)));

            survivor.forgetRanks(List.of(0));

            assertThat(files()).isEmpty();
            assertThat(copy.intact()).isTrue();
            assertThat(RawBits.of(copy.read())).as("the mapping outlives the file's name").isEqualTo(RawBits.of(state));
        }
    }

    @Test
    void when_aRankStartsAgain_then_itsEarlierFilesAreDeleted() throws IOException {
        SharedMemoryCopies.in(dir, 0).place(5, 20, 77, state(1, 40), List.of(1));

        try (SharedMemoryCopies again = SharedMemoryCopies.in(dir, 0)) {
            assertThat(files()).isEmpty();
        }
    }

    @Test
    void when_noFileCanBeMade_then_noMoreCopiesAreTried() throws IOException {
        Files.writeString(dir.resolve("w0"), "not a directory"); // as a full tmpfs, every file fails
        try (SharedMemoryCopies writer = SharedMemoryCopies.in(dir, 0)) {
            assertThat(writer.mayPlaceFor(1)).isTrue();

            assertThat(writer.place(5, 20, 77, state(1, 40), List.of(1))).isNull();

            assertThat(writer.mayPlaceFor(1)).isFalse();
            assertThat(writer.mayPlaceFor(2)).isFalse();
        }
    }

    @Test
    void when_thereIsNoDirectory_then_nothingIsPlaced() {
        assertThat(SharedMemoryCopies.in(null, 0)).isSameAs(SharedMemoryCopies.NONE);
        assertThat(SharedMemoryCopies.in(dir.resolve("missing"), 0)).isSameAs(SharedMemoryCopies.NONE);
        assertThat(SharedMemoryCopies.NONE.place(5, 20, 77, state(1, 40), List.of(1))).isNull();
        assertThat(SharedMemoryCopies.NONE.take(0, 5, 20, new SharedMemoryCopies.Placed(0, 77), 40).outcome())
                .isEqualTo(SharedMemoryCopies.Outcome.ABSENT);
    }

    private List<String> files() throws IOException {
        try (Stream<Path> all = Files.walk(dir)) {
            return all.filter(Files::isRegularFile).map(p -> dir.relativize(p).toString()).sorted().toList();
        }
    }
}
