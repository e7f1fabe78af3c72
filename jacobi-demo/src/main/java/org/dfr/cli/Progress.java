package org.dfr.cli;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.Locale;
import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * Progress of a long command made of steps (runs, trials, timings): a progress bar with ETA on stderr when
 * the command runs on a terminal, one plain line per step otherwise (logs and pipes do not get carriage
 * returns). The step about to start is named, so that a user watching a slow step knows what it is. A command
 * stopped by SIGINT or SIGTERM while its steps run says so in one line, naming the step it was in (it exited
 * without a word before), before anything was written: the results are written once every step is done.
 */
final class Progress implements AutoCloseable {

    private final String task;
    private final int total;
    private final PrintWriter lines;
    private final ProgressBar bar;
    private final long startNanos = System.nanoTime();
    private final InterruptNotice interrupted;
    private volatile int started;
    private volatile String current = "";

    private Progress(String task, int total, PrintWriter lines, ProgressBar bar) {
        this.task = task;
        this.total = total;
        this.lines = lines;
        this.bar = bar;
        this.interrupted = InterruptNotice.install(lines, () -> String.format(Locale.ROOT,
                "dfr %s: interrupted (SIGINT or SIGTERM) in step %d of %d (%s) after %s: nothing written", task,
                started, total, current, format((System.nanoTime() - startNanos) / 1e9)));
    }

    /**
     * @param task  the command's name, the prefix of every line
     * @param total the number of steps
     * @param lines where the plain lines go when there is no terminal
     */
    static Progress start(String task, int total, PrintWriter lines) {
        ProgressBar bar = System.console() == null ? null : new ProgressBarBuilder().setTaskName(task)
                .setInitialMax(total).setStyle(ProgressBarStyle.ASCII)
                .setConsumer(new ConsoleProgressBarConsumer(System.err)).setUpdateIntervalMillis(500).build();
        return new Progress(task, total, lines, bar);
    }

    /** Marks the previous step done (if any) and names the one starting now. */
    void next(String what) {
        if (started > 0 && bar != null) {
            bar.step();
        }
        started++;
        current = what;
        if (bar != null) {
            bar.setExtraMessage(what);
            return;
        }
        double elapsed = (System.nanoTime() - startNanos) / 1e9;
        String eta = started <= 1 ? "" : String.format(Locale.ROOT, ", ETA %s",
                format(elapsed / (started - 1) * (total - started + 1)));
        lines.printf(Locale.ROOT, "%s: [%d/%d] %s ... (elapsed %s%s)%n", task, started, total, what, format(elapsed), eta);
        lines.flush();
    }

    /**
     * Says that every step finished (a line of its own where there is no terminal: the last line was the last step's
     * start, with an ETA that no longer holds); not called when a step failed.
     */
    void done() {
        if (bar != null) {
            return; // the bar shows it as it closes
        }
        lines.printf(Locale.ROOT, "%s: %d of %d done in %s%n", task, started, total,
                format((System.nanoTime() - startNanos) / 1e9));
        lines.flush();
    }

    private static String format(double seconds) {
        Duration d = Duration.ofSeconds(Math.round(seconds));
        return d.toHours() > 0 ? String.format(Locale.ROOT, "%dh%02dm", d.toHours(), d.toMinutesPart())
                : d.toMinutes() > 0 ? String.format(Locale.ROOT, "%dm%02ds", d.toMinutes(), d.toSecondsPart())
                : d.toSeconds() + " s";
    }

    /** The notice a shutdown prints while the steps run. */
    InterruptNotice interruptNotice() {
        return interrupted;
    }

    @Override
    public void close() {
        interrupted.close();
        if (bar != null) {
            if (started > 0) {
                bar.step();
            }
            bar.close();
        }
    }
}
