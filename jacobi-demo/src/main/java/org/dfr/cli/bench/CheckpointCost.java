package org.dfr.cli.bench;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * What one checkpoint of the whole grid costs on a layout, against one iteration.
 *
 * <p>Two figures, because they answer different questions: {@code overheadMillisEach} is what the
 * iteration loop pays per checkpoint (loop time of a run with checkpoints minus that of the same run
 * without, divided by the checkpoints taken in the loop; noisy on a shared machine, may even come
 * out negative), {@code writeMillisEach} is the time the ranks measure inside their checkpoint
 * write (the slowest rank, the initial checkpoint included).
 *
 * @param layout                rank layout, e.g. {@code "2x4"}
 * @param checkpointEvery       the checkpoint interval of the run with checkpoints
 * @param checkpointsInLoop     checkpoints taken inside the loop of that run
 * @param commitLagIterations   the commit lag of that run ({@code --commit-lag-iterations})
 * @param checkpointBackups     the backups of every replicated checkpoint ({@code --checkpoint-backups})
 * @param checkpointReplication what carried them ({@code --checkpoint-replication}: hazelcast or data-plane)
 * @param iterationMillis       one iteration of the run without checkpoints
 * @param overheadMillisEach    extra loop time per checkpoint
 * @param overheadFraction      {@code overheadMillisEach / iterationMillis}
 * @param writeMillisEach       the ranks' own measurement of one checkpoint write
 * @param writeFraction         {@code writeMillisEach / iterationMillis}
 * @param note                  why the figures are missing, or null
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record CheckpointCost(String layout, Integer checkpointEvery, Integer checkpointsInLoop,
                             Integer commitLagIterations, Integer checkpointBackups, String checkpointReplication,
                             Double iterationMillis,
                             Double overheadMillisEach, Double overheadFraction, Double writeMillisEach,
                             Double writeFraction, String note) {

    /** No figures, and why. */
    public static CheckpointCost unavailable(String layout, String note) {
        return new CheckpointCost(layout, null, null, null, null, null, null, null, null, null, null, note);
    }
}
