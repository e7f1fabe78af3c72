package org.dfr.runtime;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Collection;
import java.util.Collections;
import java.util.Objects;
import java.util.SortedSet;
import java.util.TreeSet;

/** The run cannot produce a correct result; the message says why and {@link #kind} classifies it. */
public final class RunFailedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** Why a run failed, for callers that react to the cause (never classify by message text). */
    public enum Kind {
        /**
         * Every copy of a checkpoint a recovery needs is gone (the deaths took a partition's owner and
         * the members holding its replicated copies): correct behaviour, the state cannot be rebuilt.
         */
        CHECKPOINT_LOST,
        /** Something did not happen within its time limit (a recovery decision, the run). */
        TIMEOUT,
        /**
         * The members did not form their cluster (a rank could not join, or did not see every member
         * within the join timeout): nothing was computed yet, so a fresh start may succeed.
         */
        CLUSTER_NOT_FORMED,
        /**
         * An embedded run failed and a rank's thread did not stop (a kernel's update that never returns): the thread
         * goes on in this JVM, taking a core from whatever runs next here.
         */
        RANK_STUCK,
        /** The launcher was stopped by SIGINT or SIGTERM (Ctrl-C) and stopped its ranks: no failure of the run's own. */
        INTERRUPTED,
        /** Any other cause. */
        OTHER
    }

    private final Kind kind;
    private final SortedSet<Integer> deadRanks;

    /** A failure of kind {@link Kind#OTHER}. */
    public RunFailedException(String message) {
        this(Kind.OTHER, message);
    }

    /** A failure of kind {@link Kind#OTHER} with its cause. */
    public RunFailedException(String message, Throwable cause) {
        this(Kind.OTHER, message, cause);
    }

    /**
     * What {@code what} threw, as one line: the runtime's own failure as it is, anything else (a kernel's exception,
     * say) as "{@code what} failed: the exception at the line that threw it".
     */
    public static RunFailedException failed(String what, Throwable thrown) {
        return thrown instanceof RunFailedException own ? own
                : new RunFailedException(what + " failed: " + thrown + ThrownAt.of(thrown), thrown);
    }

    /** A failure of the given kind. */
    public RunFailedException(Kind kind, String message) {
        super(message);
        this.kind = Objects.requireNonNull(kind);
        this.deadRanks = Collections.emptySortedSet();
    }

    /** A failure of the given kind with its cause. */
    public RunFailedException(Kind kind, String message, Throwable cause) {
        this(kind, message, cause, Collections.emptySortedSet());
    }

    private RunFailedException(Kind kind, String message, Throwable cause, SortedSet<Integer> deadRanks) {
        super(message, cause);
        this.kind = Objects.requireNonNull(kind);
        this.deadRanks = deadRanks;
    }

    /** What kind of failure this is. */
    public Kind kind() {
        return kind;
    }

    /**
     * The ranks that had died in the run when it failed, as the launcher that ran the ranks saw them (empty when not
     * known). A campaign judges by them whether a lost checkpoint is a pass: one death never loses every copy.
     */
    public SortedSet<Integer> deadRanks() {
        return deadRanks;
    }

    /** This failure (kind, message, cause and stack trace) with the ranks dead when it happened ({@link #deadRanks}). */
    public RunFailedException withDeadRanks(Collection<Integer> ranks) {
        RunFailedException copy = new RunFailedException(kind, getMessage(), getCause(),
                Collections.unmodifiableSortedSet(new TreeSet<>(ranks)));
        copy.setStackTrace(getStackTrace());
        return copy;
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    /** The control-board form of a failure ({@link RankNode#FAILED_KEY}): its kind and reason. */
    record BoardValue(Kind kind, String reason) {
    }

    /** The control-board value announcing a failure of {@code kind} for {@code reason}. */
    public static String boardValue(Kind kind, String reason) {
        try {
            return JSON.writeValueAsString(new BoardValue(kind, reason));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The control-board value announcing {@code failure} (a failure of another type is {@link Kind#OTHER}). */
    public static String boardValue(RuntimeException failure) {
        Kind kind = failure instanceof RunFailedException rf ? rf.kind() : Kind.OTHER;
        return boardValue(kind, String.valueOf(failure.getMessage()));
    }

    /** The failure a control-board value written by {@link #boardValue} announces (plain text: {@link Kind#OTHER}). */
    public static RunFailedException fromBoardValue(String value) {
        try {
            BoardValue v = JSON.readValue(value, BoardValue.class);
            if (v.kind() != null && v.reason() != null) {
                return new RunFailedException(v.kind(), v.reason());
            }
        } catch (JsonProcessingException e) {
            // not written by boardValue: the text is the reason
        }
        return new RunFailedException(Kind.OTHER, value);
    }
}
