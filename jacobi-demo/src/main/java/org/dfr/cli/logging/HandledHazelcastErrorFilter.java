package org.dfr.cli.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.core.filter.Filter;
import ch.qos.logback.core.spi.FilterReply;

/**
 * Drops Hazelcast's errors that the runtime handles and reports in a line of its own.
 *
 * <p>A port that is taken ({@code BindException} in the cause chain): Hazelcast logs its "Cannot bind ... Port [N]
 * is already in use" at ERROR with 40 lines of stack trace, and the rank then fails in one line of its own ("rank R
 * could not join the cluster: Cannot bind ..."), after which the launcher starts the ranks again on fresh ports
 * or the run fails with that line. A solver author's walk-through saw the trace from a rank before a fresh formation.
 *
 * <p>Errors caused by a stopped member ({@code HazelcastInstanceNotActiveException}, an executor
 * "was shut down" or a task rejected by a pool "[Shutting down" or "[Terminated" (its invocation monitor's, seen on an
 * experiment's console as a run's members stopped), or a retryable "is not active" in the cause chain; the last two came with stack traces after
 * a successful embedded run that killed a rank): at the end of a run every rank stops its member while the others may still be fetching the
 * partition table from it or from themselves ("Failed to fetch partition table ... Hazelcast instance is not
 * active!"), which printed 40 lines of stack trace after a successful run now and then. Other errors, and
 * Hazelcast's warnings when {@code dfr.hazelcast.log} shows them, pass. In one JVM (embedded mode) this also
 * drops such an error of a running member about a stopped one: a failure that matters surfaces as the
 * runtime's own error.
 *
 * <p>A partition message from a member that already left ("Received completed migrations from an unknown member!
 * => Sender: ..."; no stack trace): Hazelcast ignores the message, and the member left because its run ended or
 * its rank died, which the runtime handles. It came on an experiment's console between two runs, as the last
 * run's members stopped one after another.
 *
 * <p>A member that could not join ("Could not join cluster. Shutting down now!"): the runtime forms the cluster again
 * with a warning of its own (embedded mode), or the rank fails in a line of its own and its launcher starts the ranks
 * again or fails the run with that line. A solver author's walk-through took the ERROR line on a loaded machine for
 * a failed run that then succeeded (session 43).
 *
 * <p>A mastership claim refused because its claimant is no longer a member ("[addr] claims mastership but it is not a
 * member!", with a stack trace, once per refusing member): in embedded mode a rank that dies with another may begin a
 * claim before its own member terminates; the survivors refuse it, which is what keeps them one cluster. A resilience
 * researcher's walk-through saw four traces in 3 of 12 runs with two deaths, each bit-exact. Had the refusal split the
 * cluster (session 39's WRONG trial, before {@code MasterSilence}), the recovery fails in the runtime's own line
 * ("failure of ranks ... but only ranks ... were killed") and the digest check catches it.
 *
 * <p>{@code -Ddfr.hazelcast.expectedErrors=ERROR} (the shipped configuration's switch for every expected
 * Hazelcast error) lets them through again.
 */
public final class HandledHazelcastErrorFilter extends Filter<ILoggingEvent> {

    /** The exception Hazelcast throws into anything still running on a member that stopped. */
    static final String NOT_ACTIVE = "com.hazelcast.core.HazelcastInstanceNotActiveException";
    /** A task handed to a stopped member's executor: "Executor[hz:io] was shut down". */
    static final String REJECTED = "java.util.concurrent.RejectedExecutionException";
    /** An operation retried on a member that is stopping: "HazelcastInstance[...] is not active!". */
    static final String RETRYABLE = "com.hazelcast.spi.exception.RetryableHazelcastException";
    /** A member's port taken: "Address already in use". */
    static final String BIND = "java.net.BindException";
    private static final String HAZELCAST = "com.hazelcast.";
    /** Hazelcast's words for a partition message it ignores because its sender is no longer a member. */
    static final String FROM_UNKNOWN_MEMBER = "from an unknown member!";

    /** Hazelcast's words for a mastership claim it refuses because the claimant was removed already. */
    static final String CLAIM_OF_A_NON_MEMBER = "claims mastership but it is not a member!";

    /** Hazelcast's words for a member that gave up joining (it then shuts itself down). */
    static final String COULD_NOT_JOIN = "Could not join cluster";

    private boolean shown;

    /** "OFF" (the default) drops these errors; any other level shows them. */
    public void setExpectedErrors(String level) {
        this.shown = level != null && !level.isBlank() && !"OFF".equalsIgnoreCase(level.trim());
    }

    @Override
    public FilterReply decide(ILoggingEvent event) {
        if (shown || event.getLevel().levelInt < Level.ERROR_INT || !event.getLoggerName().startsWith(HAZELCAST)) {
            return FilterReply.NEUTRAL;
        }
        if (event.getThrowableProxy() == null && event.getFormattedMessage() != null
                && event.getFormattedMessage().contains("Received ")
                && event.getFormattedMessage().contains(FROM_UNKNOWN_MEMBER)) {
            return FilterReply.DENY;
        }
        if (event.getFormattedMessage() != null && (event.getFormattedMessage().contains(COULD_NOT_JOIN)
                || event.getFormattedMessage().contains(CLAIM_OF_A_NON_MEMBER))) {
            return FilterReply.DENY;
        }
        for (IThrowableProxy t = event.getThrowableProxy(); t != null; t = t.getCause()) {
            if (causedByStoppedMember(t.getClassName(), t.getMessage()) || BIND.equals(t.getClassName())) {
                return FilterReply.DENY;
            }
        }
        return FilterReply.NEUTRAL;
    }

    /** Whether an exception of {@code className} with {@code message} says that a member stopped (or is stopping). */
    static boolean causedByStoppedMember(String className, String message) {
        String text = message == null ? "" : message;
        return NOT_ACTIVE.equals(className)
                || REJECTED.equals(className) && (text.contains("was shut down") || text.contains("[Shutting down")
                        || text.contains("[Terminated"))
                || RETRYABLE.equals(className) && text.contains("is not active");
    }
}
