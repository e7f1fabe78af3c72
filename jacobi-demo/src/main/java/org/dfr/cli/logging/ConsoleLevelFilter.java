package org.dfr.cli.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.filter.Filter;
import ch.qos.logback.core.spi.FilterReply;

/**
 * Lets through to the console what it prints when nothing else is logged: events of at least {@link #setLevel level}
 * ({@code dfr.log}, WARN by default), and of Hazelcast's loggers those of at least
 * {@link #setHazelcastLevel hazelcastLevel} ({@code dfr.hazelcast.log}, ERROR), which overrides the first. Loggers
 * are set lower when another appender records more (a campaign trial's log, a rank's log file); this filter keeps
 * the console as it was.
 */
public final class ConsoleLevelFilter extends Filter<ILoggingEvent> {

    private static final String HAZELCAST = "com.hazelcast";

    private Level level = Level.WARN;
    private Level hazelcastLevel = Level.ERROR;

    /** For Logback's configuration files; the levels are set afterwards. */
    public ConsoleLevelFilter() {
    }

    /** A filter with both levels. */
    public ConsoleLevelFilter(Level level, Level hazelcastLevel) {
        this.level = level;
        this.hazelcastLevel = hazelcastLevel;
    }

    /** The least level printed (a level's name; an unknown name means DEBUG, as Logback reads it). */
    public void setLevel(String name) {
        this.level = Level.toLevel(name, Level.DEBUG);
    }

    /** The least level printed of Hazelcast's loggers (instead of {@link #setLevel}'s). */
    public void setHazelcastLevel(String name) {
        this.hazelcastLevel = Level.toLevel(name, Level.DEBUG);
    }

    @Override
    public FilterReply decide(ILoggingEvent event) {
        // Hazelcast's logger level overrides the root's in the shipped configuration, either way
        Level least = event.getLoggerName().startsWith(HAZELCAST) ? hazelcastLevel : level;
        return event.getLevel().isGreaterOrEqual(least) ? FilterReply.NEUTRAL : FilterReply.DENY;
    }
}
