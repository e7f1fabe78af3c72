package org.dfr.harness;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.dfr.recovery.IdleRankListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A rank process's side of {@link CappingLines}: tells the launcher when this rank idles and when
 * it has work again, and waits for the launcher to lift its host's cap before computing.
 *
 * <p>The wait is bounded ({@code readyTimeoutMillis}): a launcher that does not answer in time is
 * logged and the rank computes anyway, possibly slower, never hung. (A launcher that is gone halts
 * the rank at once; see {@code RankProcessMain}.)
 */
final class LauncherCappingClient implements IdleRankListener {

    private static final Logger LOG = LoggerFactory.getLogger(LauncherCappingClient.class);

    /** How long a rank waits for its host's cap to be lifted. Sysfs writes take microseconds. */
    static final long DEFAULT_READY_TIMEOUT_MILLIS = 10_000;

    private final PrintStream toLauncher;
    private final long readyTimeoutMillis;
    private final AtomicLong sequence = new AtomicLong();
    private final Map<Long, CompletableFuture<Void>> pending = new ConcurrentHashMap<>();

    /**
     * Starts reading {@code fromLauncher} on a daemon thread.
     *
     * @param toLauncher   where the rank's lines go (the process's stdout)
     * @param fromLauncher the launcher's answers (the process's stdin)
     */
    LauncherCappingClient(PrintStream toLauncher, InputStream fromLauncher, long readyTimeoutMillis) {
        this.toLauncher = toLauncher;
        this.readyTimeoutMillis = readyTimeoutMillis;
        Thread reader = new Thread(() -> readAnswers(fromLauncher), "dfr-capping-answers");
        reader.setDaemon(true);
        reader.start();
    }

    /**
     * A rank's idle and busy lines for a launcher that only records them (a run without capping): the phases of its
     * recoveries come from the same events as a capped run's, so that the two are compared on one timeline. Nothing
     * is awaited, and stdin is not read.
     */
    static IdleRankListener reportingOnly(PrintStream toLauncher) {
        AtomicLong sequence = new AtomicLong();
        return new IdleRankListener() {
            @Override
            public void rankIdle(int rank) {
                send(toLauncher, CappingLines.idle(rank));
            }

            @Override
            public void rankBusy(int rank) {
                send(toLauncher, CappingLines.busy(rank, sequence.incrementAndGet()));
            }
        };
    }

    @Override
    public void rankIdle(int rank) {
        send(CappingLines.idle(rank));
    }

    @Override
    public void rankBusy(int rank) {
        long seq = sequence.incrementAndGet();
        CompletableFuture<Void> ready = new CompletableFuture<>();
        pending.put(seq, ready);
        send(CappingLines.busy(rank, seq));
        try {
            ready.get(readyTimeoutMillis, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            LOG.warn("rank {}: the launcher did not confirm within {} ms that the host runs at full speed;"
                    + " computing anyway", rank, readyTimeoutMillis);
        } catch (ExecutionException e) {
            LOG.warn("rank {}: no answer from the launcher ({}); computing anyway", rank, e.getCause().getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            pending.remove(seq);
        }
    }

    private void send(String line) {
        send(toLauncher, line);
    }

    /** One whole line to the launcher: the rank's other output shares the stream. */
    private static void send(PrintStream toLauncher, String line) {
        synchronized (toLauncher) {
            toLauncher.println(line);
            toLauncher.flush();
        }
    }

    private void readAnswers(InputStream fromLauncher) {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(fromLauncher, StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                CappingLines.parse(line).filter(e -> e.kind() == CappingLines.Kind.READY).ifPresent(e -> {
                    CompletableFuture<Void> waiting = pending.get(e.seq());
                    if (waiting != null) {
                        waiting.complete(null);
                    }
                });
            }
        } catch (IOException e) {
            LOG.debug("capping answers from the launcher ended: {}", e.getMessage());
        }
        IOException closed = new IOException("the launcher closed this rank's input");
        pending.values().forEach(f -> f.completeExceptionally(closed));
    }
}
