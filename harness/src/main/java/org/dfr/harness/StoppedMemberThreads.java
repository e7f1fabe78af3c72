package org.dfr.harness;

import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The uncaught-exception handler of a dfr JVM: a Hazelcast thread that dies because its member was just stopped
 * (a task handed to an executor that "was shut down" or is "Shutting down", or the instance "is not active") is
 * logged at DEBUG, not printed with its stack trace; anything else is printed as the JVM prints it. At the end of a
 * run every rank stops its member while others may still hand it work, and now and then (1 run in 15 with a failure)
 * such a trace of 20 lines followed a correct result. The logged errors of the same cause are filtered in the
 * logging configuration; these never reach the logging.
 */
public final class StoppedMemberThreads implements Thread.UncaughtExceptionHandler {

    private static final Logger LOG = LoggerFactory.getLogger(StoppedMemberThreads.class);
    private static final String NOT_ACTIVE = "com.hazelcast.core.HazelcastInstanceNotActiveException";

    private StoppedMemberThreads() {
    }

    /** Installs the handler as this JVM's default (threads with a handler of their own keep it). */
    public static void install() {
        Thread.setDefaultUncaughtExceptionHandler(new StoppedMemberThreads());
    }

    @Override
    public void uncaughtException(Thread t, Throwable e) {
        if (isStoppedMemberNoise(t.getName(), e)) {
            LOG.debug("{} ended with the member it served: {}", t.getName(), e.toString());
            return;
        }
        System.err.print("Exception in thread \"" + t.getName() + "\" ");
        e.printStackTrace(System.err);
    }

    /** Whether {@code e}, thrown in a thread named {@code threadName}, says only that a Hazelcast member stopped. */
    static boolean isStoppedMemberNoise(String threadName, Throwable e) {
        if (threadName == null || !threadName.startsWith("hz.")) {
            return false;
        }
        for (Throwable c = e; c != null; c = c.getCause() == c ? null : c.getCause()) {
            String message = String.valueOf(c.getMessage());
            if (c instanceof RejectedExecutionException && (message.contains("was shut down")
                    || message.contains("Shutting down") || message.contains("Terminated"))) {
                return true;
            }
            if (NOT_ACTIVE.equals(c.getClass().getName())) {
                return true;
            }
        }
        return false;
    }
}
