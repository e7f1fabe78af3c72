package org.dfr.power.freq;

import java.util.Collections;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.dfr.power.Ticker;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides when a host is capped: only while every rank on it is idle. The last rank to become idle caps
 * the host; the first rank that has work again lifts the cap <em>before</em> {@link #rankBusy} returns,
 * so it never computes at the minimum frequency. Every rank starts busy. Thread-safe: ranks of one host
 * call it from their own threads, and the sysfs writes happen under its lock.
 *
 * <p>A failing cap leaves the host uncapped; a failing lift is logged and reported to the
 * {@link Listener} but does not stop the rank (the journal keeps the originals for a later restore).
 */
public final class HostCapArbiter implements AutoCloseable {

    /** Told about caps and lifts, e.g. to mark the {@code CAPPED} phase. Called under the arbiter's lock. */
    public interface Listener {

        /** The host has just been capped. */
        default void capped(CapOutcome outcome) {
        }

        /** The cap has just been lifted. */
        default void lifted(RestoreOutcome outcome) {
        }

        /** A cap or a lift failed; {@code action} is {@code "cap"} or {@code "lift"}. */
        default void failed(String action, FrequencyControlException error) {
        }
    }

    private static final Logger LOG = LoggerFactory.getLogger(HostCapArbiter.class);
    private static final Listener NO_LISTENER = new Listener() {
    };

    private final Set<Integer> ranks;
    private final FrequencyController controller;
    private final Ticker ticker;
    private final Listener listener;
    private final Set<Integer> idle = new TreeSet<>();
    private final Set<Integer> gone = new TreeSet<>();
    private boolean capped;
    private long capEvents;
    private long liftEvents;
    private long cappedSinceNanos;
    private long cappedNanos;
    private String lastFailure;

    /** An arbiter on the system clock without a listener. */
    public HostCapArbiter(Set<Integer> ranksOnHost, FrequencyController controller) {
        this(ranksOnHost, controller, Ticker.system(), NO_LISTENER);
    }

    /**
     * @param ranksOnHost the ranks running on this host (not empty)
     * @param controller  the host's frequency controller
     * @param ticker      the clock for {@link #cappedNanos()}
     * @param listener    told about caps and lifts
     */
    public HostCapArbiter(Set<Integer> ranksOnHost, FrequencyController controller, Ticker ticker,
                          Listener listener) {
        if (ranksOnHost.isEmpty()) {
            throw new IllegalArgumentException("a host needs at least one rank");
        }
        this.ranks = new TreeSet<>(ranksOnHost);
        this.controller = Objects.requireNonNull(controller, "controller");
        this.ticker = Objects.requireNonNull(ticker, "ticker");
        this.listener = Objects.requireNonNull(listener, "listener");
    }

    /**
     * Marks {@code rank} idle; caps the host when it was the last busy rank.
     *
     * @return whether the host is capped after the call
     * @throws IllegalArgumentException when {@code rank} is not on this host
     */
    public synchronized boolean rankIdle(int rank) {
        requireOnHost(rank);
        idle.add(rank);
        return capIfAllIdle();
    }

    /**
     * Marks {@code rank} dead: it counts as idle from now on, so the host is capped once its live ranks are all idle
     * (a dead rank never calls {@link #rankIdle}). A rank in its place comes through {@link #replaceRank} or
     * {@link #rankBusy}. A host whose ranks are all dead is not capped: no rank of it is left to lift the cap.
     *
     * @return whether the host is capped after the call
     * @throws IllegalArgumentException when {@code rank} is not on this host
     */
    public synchronized boolean rankGone(int rank) {
        requireOnHost(rank);
        gone.add(rank);
        idle.add(rank);
        return capIfAllIdle();
    }

    private boolean capIfAllIdle() {
        if (!capped && idle.size() == ranks.size() && !gone.containsAll(ranks)) {
            try {
                CapOutcome outcome = controller.capToMinimum();
                if (controller.isCapped()) {
                    capped = true;
                    capEvents++;
                    cappedSinceNanos = ticker.read();
                    listener.capped(outcome);
                } else {
                    LOG.debug("host of ranks {} not capped: {}", ranks, outcome.message());
                }
            } catch (FrequencyControlException e) {
                lastFailure = "cap: " + e.getMessage();
                LOG.warn("could not cap the host of ranks {}: {}", ranks, e.getMessage());
                listener.failed("cap", e);
            }
        }
        return capped;
    }

    /**
     * Marks {@code rank} busy and, if the host is capped, restores its frequency before returning.
     *
     * @throws IllegalArgumentException when {@code rank} is not on this host
     */
    public synchronized void rankBusy(int rank) {
        requireOnHost(rank);
        idle.remove(rank);
        gone.remove(rank);
        if (capped) {
            lift();
        }
    }

    private void lift() {
        try {
            RestoreOutcome outcome = controller.restore();
            liftEvents++;
            cappedNanos += ticker.read() - cappedSinceNanos;
            capped = false;
            listener.lifted(outcome);
        } catch (FrequencyControlException e) {
            lastFailure = "lift: " + e.getMessage();
            LOG.error("could not lift the cap of the host of ranks {}: {}", ranks, e.getMessage());
            listener.failed("lift", e);
        }
    }

    /**
     * Rank {@code fresh} takes the place of {@code replaced} on this host (a process started in place of
     * a dead one): it starts busy, so a capped host is lifted before this returns.
     *
     * @throws IllegalArgumentException when {@code replaced} is not on this host
     */
    public synchronized void replaceRank(int replaced, int fresh) {
        requireOnHost(replaced);
        ranks.remove(replaced);
        idle.remove(replaced);
        gone.remove(replaced);
        ranks.add(fresh);
        if (capped) {
            lift();
        }
    }

    private void requireOnHost(int rank) {
        if (!ranks.contains(rank)) {
            throw new IllegalArgumentException("rank " + rank + " is not on this host; its ranks are " + ranks);
        }
    }

    /** @return the ranks of this host */
    public synchronized Set<Integer> ranks() {
        return Collections.unmodifiableSet(new TreeSet<>(ranks));
    }

    /** @return a snapshot of the ranks now idle */
    public synchronized Set<Integer> idleRanks() {
        return Collections.unmodifiableSet(new TreeSet<>(idle));
    }

    public synchronized boolean isCapped() {
        return capped;
    }

    /** @return how many times the host was capped */
    public synchronized long capEvents() {
        return capEvents;
    }

    /** @return how many times the cap was lifted */
    public synchronized long liftEvents() {
        return liftEvents;
    }

    /** @return the total time the host has been capped, including a cap in force now */
    public synchronized long cappedNanos() {
        return cappedNanos + (capped ? ticker.read() - cappedSinceNanos : 0);
    }

    /** @return the last failed cap or lift, if any */
    public synchronized Optional<String> lastFailure() {
        return Optional.ofNullable(lastFailure);
    }

    /** Lifts a cap still in force (e.g. at the end of a run). */
    @Override
    public synchronized void close() {
        if (capped) {
            lift();
        }
    }
}
