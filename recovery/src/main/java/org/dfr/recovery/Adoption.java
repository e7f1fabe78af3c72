package org.dfr.recovery;

/**
 * A lost partition and the rank that adopts it in a recovery.
 *
 * @param partition the partition whose owner died
 * @param rank its new owner
 */
public record Adoption(int partition, int rank) {

    /** The form printed for people: {@code "partition:rank"}, e.g. {@code "1:8"}. */
    public String text() {
        return partition + ":" + rank;
    }
}
