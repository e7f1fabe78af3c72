package org.dfr.runtime;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.IntFunction;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sees a rank process on the same machine die within a few milliseconds, from {@code /proc}
 * ({@link ProcFs}): the kernel marks a SIGKILLed process as exiting at once, but closes its sockets,
 * which {@link DeathWatch} waits for, only after it freed the process's memory (tens of milliseconds
 * for a few hundred MB). Two ranks of a machine watch, every {@link #POLL_MICROS} microseconds: the
 * lowest live rank among its processes reads the state of every other one, and the next rank after it
 * reads the lowest one's; the others do not poll. Each process of the machine is thus watched by one
 * other, as when every rank watched its successor in a ring, but a machine's polling threads wake up
 * twice per interval instead of once per rank: measured on 2 cores with 8 rank processes, each wake-up
 * takes a core from a computing rank, and the ring's 4,000 a second cost about a quarter of the loop
 * (docs/bench.md, session 20). Ranks on other machines, ranks in this very process (embedded mode) and
 * processes whose identity {@code /proc} does not confirm (another pid namespace) are not watched here:
 * the data plane and Hazelcast's heartbeat find those. Every other rank reads the two pollers' state when it
 * chooses whom to poll, every {@value #RESELECT_MILLIS} ms: when the lowest rank and the next die together, another
 * rank sees them exiting there (if they are not gone already: then the data plane finds them). The peers' stat
 * files stay open between reads ({@link ProcFs#open}).
 *
 * <p>Why it is safe: a process the kernel marks as exiting never runs its code again, and a process
 * whose pid is gone or now belongs to another start time has exited; a slow or stopped process
 * (SIGSTOP, a long GC) is neither. What the watch finds it reports like a death the data plane
 * confirmed ({@link DeathWatch#exitSeen}): the epoch is interrupted, the other ranks are told with a
 * {@code RANK_LOST} notice and Hazelcast suspects the member.
 */
public final class ExitWatch implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ExitWatch.class);

    /**
     * System property: how often, in microseconds, the watched peer's state is read (default
     * {@value #DEFAULT_POLL_MICROS}). Each rank's watch wakes up that often on cores the ranks compute on:
     * measured on 2 cores with 8 rank processes of 4096x4096, the loop took 0.8-0.9 of its time with polls
     * every 50 ms and with no watch at all (docs/bench.md, session 20), at the price of later detections.
     */
    public static final String POLL_MICROS_PROPERTY = "dfr.exitWatchPollMicros";
    /** How often the watched peer's state is read when {@value #POLL_MICROS_PROPERTY} is not set. */
    public static final long DEFAULT_POLL_MICROS = 2_000;
    /** How often the watched peer's state is read. */
    public static final long POLL_MICROS = pollMicros(System.getProperty(POLL_MICROS_PROPERTY));
    /** How often the watched peer is chosen again (members join and leave). */
    static final long RESELECT_MILLIS = 50;

    private final int rankId;
    private final ProcessIdentity self;
    private final ProcFs proc;
    private final Supplier<TreeSet<Integer>> liveRanks;
    private final IntFunction<Optional<ProcessIdentity>> identityOf;
    private final BooleanSupplier stopped;
    private final ExitListener listener;
    private final Thread thread;
    /** Processes this watch saw exit: never chosen again (a zombie still looks alive to choose). */
    private final Set<Long> exited = new HashSet<>();
    /** The stat files of the peers' processes, kept open between reads ({@link ProcFs#open}). */
    private final Map<ProcessIdentity, ProcFs.StatFile> files = new HashMap<>();
    /** Peers whose process {@code /proc} confirmed, not read again to choose whom to poll. */
    private final Set<Watched> confirmed = new HashSet<>();
    private volatile boolean closed;
    /** The ranks watched now (for tests and logs). */
    private volatile List<Integer> watchedRanks = List.of();
    private final long pollNanos;

    /** Told when the watched rank's process exits. */
    @FunctionalInterface
    public interface ExitListener {
        /** Rank {@code rank}'s process is exiting or gone ({@code how} says which, for the log). */
        void exited(int rank, String how);
    }

    private ExitWatch(int rankId, ProcessIdentity self, ProcFs proc, Supplier<TreeSet<Integer>> liveRanks,
                      IntFunction<Optional<ProcessIdentity>> identityOf, BooleanSupplier stopped,
                      ExitListener listener, long pollMicros) {
        this.rankId = rankId;
        this.pollNanos = TimeUnit.MICROSECONDS.toNanos(pollMicros);
        this.self = self;
        this.proc = proc;
        this.liveRanks = liveRanks;
        this.identityOf = identityOf;
        this.stopped = stopped;
        this.listener = listener;
        this.thread = new Thread(this::watch, "dfr-rank" + rankId + "-exit-watch");
        this.thread.setDaemon(true);
    }

    /**
     * Starts watching, or returns a watch that does nothing when this process has no identity
     * ({@code self} empty: {@code /proc} is not there).
     *
     * @param liveRanks  the ranks currently live (this one included)
     * @param identityOf the advertised process of a rank, if it advertised one
     * @param stopped    whether this rank's run ended (the watch then ends too)
     */
    public static AutoCloseable start(int rankId, Optional<ProcessIdentity> self, ProcFs proc,
                                      Supplier<TreeSet<Integer>> liveRanks,
                                      IntFunction<Optional<ProcessIdentity>> identityOf, BooleanSupplier stopped,
                                      ExitListener listener) {
        return start(rankId, self, proc, liveRanks, identityOf, stopped, listener, POLL_MICROS);
    }

    /** {@link #start(int, Optional, ProcFs, Supplier, IntFunction, BooleanSupplier, ExitListener)} polling every {@code pollMicros}. */
    static AutoCloseable start(int rankId, Optional<ProcessIdentity> self, ProcFs proc,
                               Supplier<TreeSet<Integer>> liveRanks,
                               IntFunction<Optional<ProcessIdentity>> identityOf, BooleanSupplier stopped,
                               ExitListener listener, long pollMicros) {
        if (self.isEmpty()) {
            LOG.debug("rank {}: no /proc identity: peers on this machine are watched through their sockets only", rankId);
            return () -> {
            };
        }
        ExitWatch watch = new ExitWatch(rankId, self.get(), proc, liveRanks, identityOf, stopped, listener, pollMicros);
        watch.thread.start();
        return watch;
    }

    /** A watched peer: its rank and the identity {@code /proc} confirmed when it was chosen. */
    record Watched(int rank, ProcessIdentity identity) {
    }

    private void watch() {
        try {
            watchUntilClosed();
        } finally {
            files.values().forEach(ProcFs.StatFile::close);
            files.clear();
        }
    }

    private void watchUntilClosed() {
        List<Watched> targets = List.of();
        long reselectAt = System.nanoTime();
        while (!closed && !stopped.getAsBoolean()) {
            boolean anyExited = false;
            for (Watched target : targets) {
                anyExited |= reportedExit(target);
            }
            long now = System.nanoTime();
            if (anyExited || now - reselectAt >= 0) {
                List<Watched> next = choose();
                // a peer that exited since it was last read is no longer a candidate: read it once more
                // after choosing, so that a reselection never drops an exit unreported (after a long pause,
                // a loaded machine or a GC, a reselection is due at every wake-up)
                for (Watched target : targets) {
                    if (!next.contains(target) && !exited.contains(target.identity().pid())) {
                        reportedExit(target);
                    }
                }
                targets = next;
                watchedRanks = targets.stream().map(Watched::rank).toList();
                reselectAt = now + TimeUnit.MILLISECONDS.toNanos(RESELECT_MILLIS);
            }
            // nobody to watch from here: look again at the next reselection, not at every poll
            LockSupport.parkNanos(targets.isEmpty() ? reselectAt - now : pollNanos);
        }
    }

    /** Reads {@code watched}'s state and reports its exit, if it exited. */
    private boolean reportedExit(Watched watched) {
        String how = exitOf(fileOf(watched.identity()).read(), watched.identity());
        if (how == null) {
            return false;
        }
        report(watched, how);
        return true;
    }

    /** Why {@code state} means the process {@code watched} exited, or null while it lives. */
    static String exitOf(ProcFs.ProcessState state, ProcessIdentity watched) {
        if (!state.exists()) {
            return "its process " + watched.pid() + " is gone";
        }
        if (state.startTicks() != watched.startTicks()) {
            return "its process " + watched.pid() + " is gone (the pid belongs to a newer process)";
        }
        if (state.exiting()) {
            return "its process " + watched.pid() + " is exiting";
        }
        return null;
    }

    /** {@code value} of {@value #POLL_MICROS_PROPERTY} if it is a positive number, else the default (said once). */
    static long pollMicros(String value) {
        if (value == null) {
            return DEFAULT_POLL_MICROS;
        }
        try {
            long micros = Long.parseLong(value.trim());
            if (micros > 0) {
                return micros;
            }
        } catch (NumberFormatException e) {
            // said below
        }
        LoggerFactory.getLogger(ExitWatch.class).warn("{}={} is not a positive number of microseconds: polling every"
                + " {} us", POLL_MICROS_PROPERTY, value, DEFAULT_POLL_MICROS);
        return DEFAULT_POLL_MICROS;
    }

    /**
     * The peers this rank polls now: see {@link #targets}. A peer's process is confirmed through {@code /proc}
     * once; after that a reselection reads only the state of the two ranks that poll (when this rank polls
     * nobody): every exit but theirs is the pollers' to see, and theirs is seen here when they die together.
     * Fewer reads did not make the watch measurably cheaper (docs/bench.md, session 21: its cost is the wake-ups),
     * but nothing is read that nobody needs.
     */
    private List<Watched> choose() {
        List<Watched> candidates = new ArrayList<>();
        Set<ProcessIdentity> seen = new HashSet<>();
        for (int rank : liveRanks.get()) {
            if (rank == rankId) {
                continue;
            }
            Optional<ProcessIdentity> id = identityOf.apply(rank);
            if (id.isEmpty() || !self.isOtherProcessOnThisMachine(id.get()) || exited.contains(id.get().pid())) {
                continue;
            }
            Watched peer = new Watched(rank, id.get());
            seen.add(id.get());
            if (!confirmed.contains(peer)) {
                // watched only if /proc confirms the advertised process (not another pid namespace's)
                ProcFs.ProcessState state = fileOf(id.get()).read();
                if (!state.exists() || state.startTicks() != id.get().startTicks()) {
                    closeFile(id.get()); // opened again at the next try: the pid may be a new process's by then
                    continue;
                }
                if (state.exiting()) {
                    report(peer, exitOf(state, id.get()));
                    continue;
                }
                confirmed.add(peer);
            }
            candidates.add(peer);
        }
        confirmed.removeIf(w -> !seen.contains(w.identity()));
        closeFilesBut(seen);
        List<Watched> mine = targets(rankId, candidates);
        if (mine.isEmpty() && !candidates.isEmpty()) {
            // the pollers' own watchers may have died with them (the lowest rank and the next together): every
            // other rank reads their state here, so such an exit is still seen within one reselection
            List<Watched> pollers = List.copyOf(candidates.subList(0, Math.min(2, candidates.size())));
            for (Watched poller : pollers) {
                if (reportedExit(poller)) {
                    candidates.remove(poller);
                }
            }
            mine = targets(rankId, candidates);
        }
        return mine;
    }

    /**
     * The open stat file of process {@code id} ({@link ProcFs#open}), opened now if it is not yet. Kept by identity,
     * not pid: an open file stays bound to the process it was opened for, and a reused pid is another process.
     * A file that could not be opened is not kept (the next read tries again).
     */
    private ProcFs.StatFile fileOf(ProcessIdentity id) {
        ProcFs.StatFile file = files.get(id);
        if (file == null) {
            file = proc.open(id.pid());
            if (file.opened()) {
                files.put(id, file);
            }
        }
        return file;
    }

    private void closeFile(ProcessIdentity id) {
        ProcFs.StatFile file = files.remove(id);
        if (file != null) {
            file.close();
        }
    }

    /** Closes the stat files of processes other than {@code ids}. */
    private void closeFilesBut(Set<ProcessIdentity> ids) {
        files.entrySet().removeIf(e -> {
            if (ids.contains(e.getKey())) {
                return false;
            }
            e.getValue().close();
            return true;
        });
    }

    private void report(Watched watched, String how) {
        exited.add(watched.identity().pid());
        if (!closed && !stopped.getAsBoolean()) {
            listener.exited(watched.rank(), how);
        }
    }

    /**
     * Whom rank {@code rankId} polls, given the other live processes of its machine ({@code candidates}, in rank
     * order): all of them when it is the lowest rank of the machine; the lowest alone when it is the next rank
     * after the lowest; else nobody.
     */
    static List<Watched> targets(int rankId, List<Watched> candidates) {
        if (candidates.isEmpty() || rankId < candidates.get(0).rank()) {
            return candidates;
        }
        Watched lowest = candidates.get(0);
        boolean nextAfterLowest = candidates.size() == 1 || rankId < candidates.get(1).rank();
        return nextAfterLowest ? List.of(lowest) : List.of();
    }

    /** The ranks this watch polls now (for tests and logs). */
    List<Integer> watchedRanks() {
        return watchedRanks;
    }

    @Override
    public void close() {
        closed = true;
        LockSupport.unpark(thread);
    }
}
