package org.dfr.harness.experiment;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.dfr.harness.RunReport;

/**
 * One run of an experiment, as a row of {@code runs.csv}. Energies in J, powers in W (J/s), times in ms; NaN
 * (an empty cell) where the meter gives nothing.
 *
 * @param run              position in the schedule
 * @param variant          the variant
 * @param repetition       1..N, 0 for a warm-up
 * @param source           the meter: rapl, perf, model or none
 * @param wallMillis       the run's wall time (cluster formed to result collected)
 * @param solverJoules     energy of every host from the end of start-up to the end of the loop: the report's
 *                         {@code energy.joules} less its finish phase (result collection and the cluster's shutdown,
 *                         which took 3 s instead of a few hundred ms in about one run in 20 here, a Hazelcast member's
 *                         shutdown waiting for a migration in flight: no part of the solver's work)
 * @param startUpJoules    energy during start-up (reported apart)
 * @param finishJoules     energy of every host in the finish phase (kept out of {@code solverJoules})
 * @param recoveryJoules   energy in detection, agreement, recovery-active, recovery-idle and capped
 * @param recoveryWallMillis death to resume, summed over recoveries: the window of {@code recoveryJoules} (the
 *                         energy timeline's, else the report's detection plus recovery wall), so that one over the
 *                         other is a power
 * @param recomputed       recomputed partition-iterations, summed over recoveries
 * @param idleHosts        hosts whose ranks were all idle in the first recovery
 * @param participatingHosts hosts with a participating rank in the first recovery
 * @param idleHostWatts    mean power of the idle hosts over their recovery phases
 * @param participatingHostWatts mean power of the participating hosts over their recovery phases
 * @param idlePhaseWatts  mean power of the idle hosts while every rank of theirs was idle (recovery-idle or
 *                         capped): where capping acts
 * @param cappedSeconds    time hosts spent capped, summed over hosts
 * @param hostRecoveryWatts per host, mean power over its recovery phases (recovery-active, -idle, capped)
 * @param fieldSha256      the result's digest
 * @param iterationSeconds the run's average iteration time outside recoveries and checkpoints (its energy timeline's
 *                         {@code iterationSecondsEstimate})
 */
public record RunRow(int run, Variant variant, int repetition, String source, long wallMillis, double solverJoules,
                     double startUpJoules, double finishJoules, double recoveryJoules, double recoveryWallMillis, double recomputed,
                     Set<String> idleHosts, Set<String> participatingHosts, double idleHostWatts,
                     double participatingHostWatts, double idlePhaseWatts, double cappedSeconds, Map<String, Double> hostRecoveryWatts,
                     String fieldSha256, double iterationSeconds) {

    /** @return the energy outside recoveries */
    public double restJoules() {
        return solverJoules - recoveryJoules;
    }

    /** The fixed columns of runs.csv, before one {@code hostN_recovery_watts} column per host. */
    public static final List<String> COLUMNS = List.of("run", "variant", "repetition", "warmup", "source", "wall_ms",
            "solver_joules", "startup_joules", "finish_joules", "recovery_joules", "rest_joules", "recovery_wall_ms",
            "recomputed_partition_iterations", "idle_hosts", "participating_hosts", "idle_host_watts",
            "participating_host_watts", "idle_phase_watts", "capped_seconds", "field_sha256", "iteration_seconds");

    /** @return the CSV cells of this row, then its host columns in {@code hosts} order */
    public String csv(List<String> hosts) {
        List<String> cells = new ArrayList<>(List.of(Integer.toString(run), variant.label(), Integer.toString(repetition),
                Boolean.toString(repetition == 0), source, Long.toString(wallMillis), num(solverJoules),
                num(startUpJoules), num(finishJoules), num(recoveryJoules), num(restJoules()), num(recoveryWallMillis), num(recomputed),
                String.join(" ", idleHosts), String.join(" ", participatingHosts), num(idleHostWatts),
                num(participatingHostWatts), num(idlePhaseWatts), num(cappedSeconds), fieldSha256, num(iterationSeconds)));
        for (String h : hosts) {
            cells.add(num(hostRecoveryWatts.getOrDefault(h, Double.NaN)));
        }
        return String.join(",", cells);
    }

    static String num(double v) {
        if (!Double.isFinite(v)) {
            return "";
        }
        // counts and whole milliseconds as integers (9, not 9.000000), so that a reader's tools see their type
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : String.format(Locale.ROOT, "%.6f", v);
    }

    /** @return the row of {@code report} */
    @SuppressWarnings("unchecked")
    public static RunRow of(int run, Variant variant, int repetition, RunReport report) {
        Map<String, Object> energy = report.energy() == null ? Map.of() : report.energy();
        String source = String.valueOf(energy.getOrDefault("source", "none"));
        double solver = number(energy.get("joules"));
        double startUp = energy.get("startUp") instanceof Map<?, ?> m ? number(m.get("joules")) : Double.NaN;
        double recovery = 0;
        double finish = 0;
        double capped = 0;
        boolean measured = !"none".equals(source);
        Map<String, Double> hostWatts = new LinkedHashMap<>();
        Map<String, Double> hostIdleWatts = new LinkedHashMap<>();
        Object hostsValue = energy.get("hosts");
        if (hostsValue instanceof List<?> hosts) {
            for (Object o : hosts) {
                Map<String, Object> host = (Map<String, Object>) o;
                Map<String, Map<String, Object>> phases = (Map<String, Map<String, Object>>) host.getOrDefault("phases",
                        Map.of());
                double recJ = 0;
                double recS = 0;
                double idleJ = 0;
                double idleS = 0;
                for (Map.Entry<String, Map<String, Object>> p : phases.entrySet()) {
                    double j = number(p.getValue().get("joules"));
                    double s = number(p.getValue().get("seconds"));
                    String phase = p.getKey();
                    if (phase.equals("finish")) {
                        finish += Double.isFinite(j) ? j : 0;
                    }
                    if (phase.equals("detection") || phase.equals("agreement") || phase.startsWith("recovery-")
                            || phase.equals("capped")) {
                        recovery += Double.isFinite(j) ? j : 0;
                    }
                    if (phase.startsWith("recovery-") || phase.equals("capped")) {
                        recJ += Double.isFinite(j) ? j : 0;
                        recS += s;
                    }
                    if (phase.equals("capped")) {
                        capped += s;
                    }
                    if (phase.equals("capped") || phase.equals("recovery-idle")) {
                        idleJ += Double.isFinite(j) ? j : 0;
                        idleS += s;
                    }
                }
                hostWatts.put(String.valueOf(host.get("host")), measured && recS > 0 ? recJ / recS : Double.NaN);
                hostIdleWatts.put(String.valueOf(host.get("host")), measured && idleS > 0 ? idleJ / idleS : Double.NaN);
            }
        }
        Set<String> idle = new TreeSet<>();
        Set<String> participating = new TreeSet<>();
        double recomputed = 0;
        List<RunReport.Recovery> recoveries = report.recoveries() == null ? List.of() : report.recoveries();
        for (RunReport.Recovery r : recoveries) {
            recomputed += r.recomputedPartitionIterations();
        }
        double recoveryWall = recoveryWindowMillis(energy, recoveries);
        if (!recoveries.isEmpty()) {
            RunReport.Recovery first = recoveries.get(0);
            int perHost = report.ranksPerHost();
            for (int r : first.participatingRanks()) {
                participating.add("host" + r / perHost);
            }
            for (int r : first.idleRanks()) {
                String h = "host" + r / perHost;
                if (!participating.contains(h)) {
                    idle.add(h);
                }
            }
        }
        return new RunRow(run, variant, repetition, source, report.wallMillis(), measured ? solver - finish : Double.NaN,
                measured ? startUp : Double.NaN, measured ? finish : Double.NaN, measured ? recovery : Double.NaN, recoveryWall, recomputed, idle,
                participating, mean(hostWatts, idle), mean(hostWatts, participating), mean(hostIdleWatts, idle), capped,
                hostWatts, report.fieldSha256(),
                energy.get("timeline") instanceof Map<?, ?> t ? number(t.get("iterationSecondsEstimate")) : Double.NaN);
    }

    private static double mean(Map<String, Double> watts, Set<String> hosts) {
        double sum = 0;
        int n = 0;
        for (String h : hosts) {
            Double w = watts.get(h);
            if (w != null && Double.isFinite(w)) {
                sum += w;
                n++;
            }
        }
        return n == 0 ? Double.NaN : sum / n;
    }

    /**
     * Death to resume, summed over recoveries, over the same window as the recovery phases' joules: the energy
     * timeline's windows when it has one per recovery, else the report's {@code detectionMillis + wallMillis}. The
     * timeline ends a window at the last rank's resume event, the report at the coordinator's view of it; on a loaded
     * machine the two differed by tens of ms, and the joules of the one over the milliseconds of the other read as more
     * power than the hosts can draw (502 W from 4 hosts of 120 W, in CI).
     */
    private static double recoveryWindowMillis(Map<String, Object> energy, List<RunReport.Recovery> recoveries) {
        if (energy.get("timeline") instanceof Map<?, ?> timeline && timeline.get("recoveries") instanceof List<?> windows
                && windows.size() == recoveries.size()) {
            double sum = 0;
            for (Object w : windows) {
                double millis = w instanceof Map<?, ?> window
                        ? (number(window.get("resumeSeconds")) - number(window.get("detectionStartSeconds"))) * 1000
                        : Double.NaN;
                if (!Double.isFinite(millis)) {
                    sum = Double.NaN;
                    break;
                }
                sum += millis;
            }
            if (Double.isFinite(sum)) {
                // the timeline holds milliseconds as seconds with three decimals: whole milliseconds, as before
                return Math.round(sum);
            }
        }
        double sum = 0;
        for (RunReport.Recovery r : recoveries) {
            // from the death, as the energy's detection phase counts: detection to resume alone made the joules of a
            // longer window read as an impossible power
            sum += (r.detectionMillis() == null ? 0 : r.detectionMillis()) + (r.wallMillis() == null ? 0
                    : r.wallMillis());
        }
        return sum;
    }

    private static double number(Object o) {
        return o instanceof Number n ? n.doubleValue() : Double.NaN;
    }
}
