package org.dfr.runtime;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.hazelcast.map.IMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Reads a finished run's results through its {@link RankNode#collectorRank collector}: the final states it
 * gathered, and the statistics and records in the replicated maps (the failure records in the {@link FailureLog}, the
 * recovery records on the {@link ControlBoard#entries control board}, each with the collector's own copy of what
 * the map lost).
 */
public final class ResultCollector {

    /** Control-board key prefix of recovery records ({@code recovery/<epoch>}). */
    public static final String RECOVERY_PREFIX = "recovery/";
    /** Control-board key prefix of replacement times ({@code replacement/<epoch>/<rank>}, milliseconds). */
    public static final String REPLACEMENT_PREFIX = "replacement/";
    /**
     * Control-board prefix of the end of a recovery ({@code resumed/<epoch>}, value
     * {@code resumedAtMillis,recomputeMillis}), written by the root apart from the record so that
     * neither write waits for the other; merged into the record here.
     */
    public static final String RESUMED_PREFIX = "resumed/";

    private static final ObjectMapper JSON = new ObjectMapper();

    private ResultCollector() {
    }

    /**
     * The run's outcome, read through {@code via}, the {@link RankNode#collectorRank collector}: the final
     * states it gathered over the data plane, the ranks' statistics and the recovery and failure records
     * from the replicated maps.
     */
    public static RunOutcome collect(RankNode via, long wallMillis) {
        Map<Integer, double[]> states = via.finalStates();
        IMap<Integer, String> statsMap = via.hazelcast().getMap(HazelcastConfigs.STATS_MAP);
        List<RankStats> stats = new ArrayList<>();
        for (Map.Entry<Integer, String> e : via.promotionRetry().call(() -> new TreeMap<>(statsMap)).entrySet()) {
            stats.add(RankStats.decode(e.getValue()));
        }
        Map<String, String> board = via.control().entries();
        TreeMap<Integer, String> recoveries = new TreeMap<>();
        TreeMap<Integer, Long> replacementMillis = new TreeMap<>();
        TreeMap<Integer, long[]> resumed = new TreeMap<>();
        for (Map.Entry<String, String> e : board.entrySet()) {
            if (e.getKey().startsWith(REPLACEMENT_PREFIX)) {
                String[] parts = e.getKey().substring(REPLACEMENT_PREFIX.length()).split("/");
                replacementMillis.merge(Integer.parseInt(parts[0]), Long.parseLong(e.getValue()), Math::max);
            }
            if (e.getKey().startsWith(RESUMED_PREFIX)) {
                String[] parts = e.getValue().split(",");
                resumed.put(Integer.parseInt(e.getKey().substring(RESUMED_PREFIX.length())),
                        new long[] {Long.parseLong(parts[0]), Long.parseLong(parts[1])});
            }
            if (e.getKey().startsWith(RECOVERY_PREFIX)) {
                recoveries.put(Integer.parseInt(e.getKey().substring(RECOVERY_PREFIX.length())), e.getValue());
            }
        }
        // the slowest adopter's checkpoint load is the recovery's replacement time
        for (Map.Entry<Integer, Long> e : replacementMillis.entrySet()) {
            String record = recoveries.get(e.getKey());
            if (record != null) {
                try {
                    ObjectNode json = (ObjectNode) JSON.readTree(record);
                    json.put("replacementMillis", e.getValue());
                    recoveries.put(e.getKey(), JSON.writeValueAsString(json));
                } catch (JsonProcessingException ex) {
                    throw new IllegalStateException("unreadable recovery record: " + record, ex);
                }
            }
        }
        for (Map.Entry<Integer, long[]> e : resumed.entrySet()) {
            String record = recoveries.get(e.getKey());
            if (record != null) {
                try {
                    ObjectNode json = (ObjectNode) JSON.readTree(record);
                    json.put("resumedAtMillis", e.getValue()[0]);
                    json.put("recomputeMillis", e.getValue()[1]);
                    recoveries.put(e.getKey(), JSON.writeValueAsString(json));
                } catch (JsonProcessingException ex) {
                    throw new IllegalStateException("unreadable recovery record: " + record, ex);
                }
            }
        }
        String ended = board.get(RankNode.ENDED_KEY);
        double residual = ended == null ? Double.NaN : Double.parseDouble(ended);
        String converged = board.get(RankNode.CONVERGED_KEY);
        int iterationsRun = converged == null ? via.spec().iterations() : Integer.parseInt(converged);
        CheckpointIntervalDecision interval = CheckpointIntervalDecision.fromJson(
                board.get(CheckpointIntervalDecision.KEY));
        via.markResultsRead();
        return new RunOutcome(states, residual, stats, new ArrayList<>(recoveries.values()),
                via.failures().all(), wallMillis, iterationsRun, converged != null, interval);
    }
}
