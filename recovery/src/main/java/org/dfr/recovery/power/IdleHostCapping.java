package org.dfr.recovery.power;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.dfr.power.freq.FrequencyControlException;
import org.dfr.power.freq.FrequencyController;
import org.dfr.power.freq.FrequencyControllers;
import org.dfr.power.freq.HostCapArbiter;
import org.dfr.power.freq.RestoreJournal;
import org.dfr.power.sysfs.Sysfs;
import org.dfr.power.sysfs.SysfsRoot;
import org.dfr.recovery.IdleRankListener;
import org.dfr.runtime.RunSpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Caps a host's CPU frequency while every rank on it is idle during a recovery, and lifts the cap
 * before any of its ranks computes again (one {@link HostCapArbiter} per host).
 *
 * <p>Where hosts live: when the sysfs root has subdirectories {@code host0}, {@code host1}, ... each
 * simulated host uses its own tree (experiments and tests on one machine); otherwise every host is
 * this machine and shares the root. Leftover journals of a previous, killed run are restored first.
 */
public final class IdleHostCapping implements IdleRankListener, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(IdleHostCapping.class);

    private final RunSpec spec;
    private final Map<Integer, HostCapArbiter> arbiters = new TreeMap<>();
    private final Map<Integer, FrequencyController> controllers = new TreeMap<>();
    private final Map<Integer, Path> roots = new TreeMap<>();
    /** Lifts and restores on SIGINT or SIGTERM (a SIGKILL leaves the journal for the next dfr command). */
    private final Thread shutdownHook = new Thread(this::closeAtShutdown, "dfr-capping-restore");
    private volatile boolean closed;

    /**
     * @param hosts the hosts whose ranks run in this JVM (every host in embedded mode, one in processes mode)
     * @param journalDirectory where restore journals go; null for {@code ~/.dfr}
     */
    public IdleHostCapping(RunSpec spec, Path sysfsRoot, Set<Integer> hosts, Path journalDirectory) {
        this.spec = spec;
        // one line per reason, naming its hosts: the same missing cpufreq on every host of a machine is one fact
        Map<String, Set<Integer>> cannotCap = new LinkedHashMap<>();
        for (int host : hosts) {
            Path root = perHostRoot(sysfsRoot, host);
            SysfsRoot sysfs = SysfsRoot.of(root);
            RestoreJournal journal = journalDirectory == null ? RestoreJournal.defaultFor(sysfs)
                    : RestoreJournal.inDirectory(journalDirectory, sysfs);
            FrequencyController controller = FrequencyControllers.probe(Sysfs.at(sysfs), journal);
            try {
                controller.restoreLeftoverJournal();
            } catch (FrequencyControlException e) {
                LOG.warn("host {}: cannot restore a leftover journal {}: {}", host, journal.file(), e.getMessage());
            }
            Set<Integer> ranks = new TreeSet<>();
            for (int r = 0; r < spec.memberCount(); r++) {
                if (spec.hostOf(r) == host) {
                    ranks.add(r);
                }
            }
            controllers.put(host, controller);
            roots.put(host, root);
            arbiters.put(host, new HostCapArbiter(ranks, controller));
            if (!controller.canCap()) {
                String reason = controller.capabilities().reason();
                String why = reason == null || reason.isBlank() ? "no controllable cpufreq policy" : reason;
                cannotCap.computeIfAbsent(why.contains(root.toString()) ? why : "sysfs root " + root + ": " + why,
                        k -> new TreeSet<>()).add(host);
            }
        }
        if (hosts.size() > 1 && roots.values().stream().distinct().count() == 1
                && controllers.values().stream().anyMatch(FrequencyController::canCap)) {
            // the simulated hosts of this JVM are one machine: capping "an idle host" caps the busy ones' CPUs too
            LOG.warn("hosts {} share the sysfs tree {}: capping an idle host caps the CPUs its busy neighbours run"
                    + " on as well; for one tree per simulated host give a root holding host0/, host1/, ..."
                    + " (docs/power.md)", new TreeSet<>(hosts), roots.values().iterator().next());
        }
        cannotCap.forEach((reason, which) -> LOG.warn("frequency capping requested but not possible on host{} {} ({});"
                + " the run goes on without capping", which.size() == 1 ? "" : "s", which, reason));
        // Ctrl-C or a SIGTERM during a run left its idle host capped (docs/power.md promised otherwise)
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    private void closeAtShutdown() {
        if (!closed) {
            LOG.warn("interrupted: lifting the frequency caps of this run and restoring the original limits");
            close();
        }
    }

    /** The sysfs root of a host: {@code root/hostN} when such directories exist, else {@code root}. */
    public static Path perHostRoot(Path sysfsRoot, int host) {
        Path candidate = sysfsRoot.resolve("host" + host);
        return Files.isDirectory(sysfsRoot.resolve("host0")) ? candidate : sysfsRoot;
    }

    @Override
    public synchronized void rankIdle(int rank) {
        // under the lock close() takes: a rank going idle while the run closes (an interrupt) must not cap again
        if (closed) {
            return;
        }
        HostCapArbiter arbiter = arbiterOf(rank);
        if (arbiter != null) {
            arbiter.rankIdle(rank);
        }
    }

    @Override
    public synchronized void rankGone(int rank) {
        if (closed) {
            return;
        }
        HostCapArbiter arbiter = arbiters.get(spec.hostOf(rank));
        if (arbiter != null && arbiter.ranks().contains(rank)) {
            arbiter.rankGone(rank);
        }
    }

    @Override
    public synchronized void rankBusy(int rank) {
        HostCapArbiter arbiter = arbiterOf(rank);
        if (arbiter != null) {
            arbiter.rankBusy(rank);
        }
    }

    /**
     * The arbiter of {@code rank}'s host; a rank respawned in place of a dead one (its id is beyond the
     * run's members, {@link RunSpec#respawnedRank}) first takes the place of its predecessor there.
     */
    private HostCapArbiter arbiterOf(int rank) {
        HostCapArbiter arbiter = arbiters.get(spec.hostOf(rank));
        if (arbiter != null && spec.isRespawned(rank)) {
            synchronized (arbiter) {
                Set<Integer> onHost = arbiter.ranks();
                if (!onHost.contains(rank)) {
                    int slot = rank % spec.memberCount();
                    onHost.stream().filter(r -> r % spec.memberCount() == slot).findFirst()
                            .ifPresent(predecessor -> arbiter.replaceRank(predecessor, rank));
                }
            }
        }
        return arbiter;
    }

    /**
     * Lifts the caps still in force once the run is over (a cap is in force when the last recovery left a host
     * idle to the end), counted like any lift, so that {@link #summary} is taken with every cap lifted.
     */
    public synchronized void liftRemaining() {
        for (Map.Entry<Integer, HostCapArbiter> e : arbiters.entrySet()) {
            try {
                e.getValue().close();
            } catch (RuntimeException ex) {
                LOG.error("host {}: cannot lift the cap: {}", e.getKey(), ex.getMessage());
            }
        }
    }

    /** Per host: whether it could cap, how often it was capped, and for how long. */
    public Map<String, Object> summary() {
        Map<String, Object> out = new LinkedHashMap<>();
        for (Map.Entry<Integer, HostCapArbiter> e : arbiters.entrySet()) {
            HostCapArbiter a = e.getValue();
            Map<String, Object> host = new LinkedHashMap<>();
            host.put("sysfsRoot", roots.get(e.getKey()).toString());
            FrequencyController controller = controllers.get(e.getKey());
            host.put("canCap", controller.canCap());
            if (!controller.canCap()) {
                // the report is read after the run, when the log that said why may be gone
                String reason = controller.capabilities().reason();
                host.put("reason", reason == null || reason.isBlank() ? "no controllable cpufreq policy" : reason);
            }
            host.put("capEvents", a.capEvents());
            host.put("liftEvents", a.liftEvents());
            host.put("cappedMillis", a.cappedNanos() / 1_000_000);
            a.lastFailure().ifPresent(f -> host.put("lastFailure", f));
            out.put("host" + e.getKey(), host);
        }
        return out;
    }

    /** Lifts every cap still in place (the run ended or failed) and restores the journals. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException shuttingDown) {
            // this is the hook, or the JVM is exiting
        }
        liftRemaining();
        for (Map.Entry<Integer, FrequencyController> e : controllers.entrySet()) {
            try {
                e.getValue().restore();
            } catch (FrequencyControlException ex) {
                LOG.error("host {}: cannot restore frequency limits: {}", e.getKey(), ex.getMessage());
            }
        }
    }
}
