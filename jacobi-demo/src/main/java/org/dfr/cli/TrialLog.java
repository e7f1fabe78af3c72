package org.dfr.cli;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.PatternLayout;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.AppenderBase;
import ch.qos.logback.core.filter.Filter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.dfr.cli.logging.ConsoleLevelFilter;
import org.dfr.cli.logging.RankLogFiles;
import org.dfr.power.AtomicFiles;
import org.slf4j.LoggerFactory;

/**
 * The log of the campaign trial that is running (the runtime's, {@code org.dfr}, at DEBUG, and Hazelcast's
 * at INFO: its partition and cluster-state lines say what a stalled recovery waited for), kept in memory
 * and written to a file only when the trial fails. A failure that depends on timing often does not come
 * back when its trial is replayed (seed 87, trial 536 of an embedded campaign passed eight replays), so
 * its log has to be kept when it happens. What the console prints does not change. Only this JVM's log is
 * kept: in processes mode the rank processes log on their own, and the launcher's part is what is here.
 */
interface TrialLog extends AutoCloseable {

    /** Most log lines kept per trial; the oldest go first. A trial logs a few hundred at DEBUG. */
    int DEFAULT_MAX_LINES = 50_000;

    /** Forgets what was recorded (called when a trial ends). */
    void clear();

    /**
     * Writes what was recorded since the last {@link #clear} to a file named for the campaign's seed and
     * the trial.
     *
     * @return the file, or null when nothing is recorded (the disabled log)
     */
    Path keep(long seed, int trial);

    /**
     * {@link #keep(long, int)}, followed by the rank processes' own logs ({@link RankLogFiles}), each under a line
     * naming its rank.
     *
     * @return the file, or null when nothing is recorded (the disabled log)
     */
    Path keep(long seed, int trial, List<Path> rankLogs);

    /** Stops recording and gives the loggers back their levels. */
    @Override
    void close();

    /** The name of trial {@code trial}'s log file in a campaign of {@code seed}. */
    static String fileName(long seed, int trial) {
        return "campaign-" + seed + "-trial-" + trial + ".log";
    }

    /** Records nothing. */
    static TrialLog none() {
        return Disabled.INSTANCE;
    }

    /**
     * Starts recording into memory; failing trials' logs are written to {@code directory}. Records
     * nothing when SLF4J is not bound to Logback (an embedding application's own logging).
     */
    static TrialLog recording(Path directory, int maxLines) {
        return LoggerFactory.getILoggerFactory() instanceof LoggerContext context
                ? new Recording(context, directory, maxLines) : none();
    }

    /** The disabled log. */
    enum Disabled implements TrialLog {
        INSTANCE;

        @Override
        public void clear() {
        }

        @Override
        public Path keep(long seed, int trial) {
            return null;
        }

        @Override
        public Path keep(long seed, int trial, List<Path> rankLogs) {
            return null;
        }

        @Override
        public void close() {
        }
    }

    /** Records through a Logback appender on {@code org.dfr}. */
    final class Recording implements TrialLog {

        static final String LOGGER = "org.dfr";
        static final String HAZELCAST_LOGGER = "com.hazelcast";
        private static final String PATTERN = "%d{HH:mm:ss.SSS} %-5level [%thread] %logger{20} - %msg%n%ex";

        private final Path directory;
        private final Logger logger;
        private final Level previousLevel;
        private final Logger hazelcastLogger;
        private final Level previousHazelcastLevel;
        private final Lines lines;
        private final List<Appender<ILoggingEvent>> consoles = new ArrayList<>();
        private final ConsoleLevelFilter printed;

        Recording(LoggerContext context, Path directory, int maxLines) {
            this.directory = directory;
            Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
            logger = context.getLogger(LOGGER);
            previousLevel = logger.getLevel();
            hazelcastLogger = context.getLogger(HAZELCAST_LOGGER);
            previousHazelcastLevel = hazelcastLogger.getLevel();
            // the root's appenders keep printing what they printed before, no DEBUG or Hazelcast INFO line more
            printed = new ConsoleLevelFilter(root.getEffectiveLevel(), hazelcastLogger.getEffectiveLevel());
            printed.start();
            for (Iterator<Appender<ILoggingEvent>> it = root.iteratorForAppenders(); it.hasNext(); ) {
                Appender<ILoggingEvent> a = it.next();
                a.addFilter(printed);
                consoles.add(a);
            }
            PatternLayout layout = new PatternLayout();
            layout.setContext(context);
            layout.setPattern(PATTERN);
            layout.start();
            lines = new Lines(layout, maxLines);
            lines.setContext(context);
            lines.setName("dfr-trial-log");
            lines.start();
            logger.addAppender(lines);
            logger.setLevel(Level.DEBUG);
            // Hazelcast's loggers that are off (its handled errors, see logback.xml) stay off
            hazelcastLogger.addAppender(lines);
            hazelcastLogger.setLevel(Level.INFO);
        }

        @Override
        public void clear() {
            lines.clear();
        }

        @Override
        public Path keep(long seed, int trial) {
            return keep(seed, trial, List.of());
        }

        @Override
        public Path keep(long seed, int trial, List<Path> rankLogs) {
            Path file = directory.resolve(fileName(seed, trial));
            try {
                AtomicFiles.write(file, tmp -> {
                    Files.write(tmp, lines.snapshot(), StandardCharsets.UTF_8);
                    try (OutputStream out = Files.newOutputStream(tmp, StandardOpenOption.APPEND)) {
                        for (Path rankLog : rankLogs) {
                            out.write(("==== rank " + RankLogFiles.rank(rankLog) + "'s own log (" + rankLog.getFileName()
                                    + ") ====" + System.lineSeparator()).getBytes(StandardCharsets.UTF_8));
                            try {
                                Files.copy(rankLog, out);
                            } catch (IOException e) {
                                // one rank's file lost says so; the trial's log and the other ranks' are kept
                                out.write(("(not readable: " + e + ")" + System.lineSeparator())
                                        .getBytes(StandardCharsets.UTF_8));
                            }
                        }
                    }
                });
                return file;
            } catch (IOException e) {
                throw new UncheckedIOException("cannot write the log of trial " + trial + " to " + file, e);
            }
        }

        @Override
        public void close() {
            logger.detachAppender(lines);
            logger.setLevel(previousLevel);
            hazelcastLogger.detachAppender(lines);
            hazelcastLogger.setLevel(previousHazelcastLevel);
            lines.stop();
            for (Appender<ILoggingEvent> a : consoles) {
                List<Filter<ILoggingEvent>> others = new ArrayList<>(a.getCopyOfAttachedFiltersList());
                others.remove(printed);
                a.clearAllFilters();
                others.forEach(a::addFilter);
            }
        }
    }

    /** The newest lines, formatted when logged (a message's arguments may change afterwards). */
    final class Lines extends AppenderBase<ILoggingEvent> {

        private final PatternLayout layout;
        private final int maxLines;
        private final ArrayDeque<String> kept = new ArrayDeque<>();

        Lines(PatternLayout layout, int maxLines) {
            this.layout = layout;
            this.maxLines = maxLines;
        }

        @Override
        protected void append(ILoggingEvent event) {
            String line = layout.doLayout(event);
            synchronized (kept) {
                if (kept.size() == maxLines) {
                    kept.removeFirst();
                }
                kept.addLast(line.endsWith("\n") ? line.substring(0, line.length() - 1) : line);
            }
        }

        void clear() {
            synchronized (kept) {
                kept.clear();
            }
        }

        List<String> snapshot() {
            synchronized (kept) {
                return List.copyOf(kept);
            }
        }
    }
}
