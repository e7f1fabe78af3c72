package org.dfr.runtime;

/**
 * A complete checkpoint copy a rank holds for another rank: the state of {@code partition} at checkpoint
 * {@code iteration}. Survivors name theirs in their recovery statuses, so that the coordinator knows who holds the
 * copies a recovery needs without reading their locators, which live in Hazelcast partitions that may be waiting for
 * a dead member's backups to be promoted.
 *
 * @param iteration the checkpoint
 * @param partition the partition whose state it is
 */
public record HeldCopy(int iteration, int partition) {
}
