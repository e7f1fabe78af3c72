package org.dfr.harness.campaign;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Records the TCP ports a trial's run listens on (Hazelcast members and data planes, in this JVM or in
 * rank processes) by sampling them while the run goes on, and checks afterwards that none is still
 * listening in this JVM or in a rank process. Ports this JVM listened on before the trial are not the
 * trial's. Only the run's own processes count: another program may take a released port at once.
 */
final class PortWatch implements AutoCloseable {

    /** How often the run's sockets are sampled. */
    static final long SAMPLE_MILLIS = 200;

    private final long self = ProcessHandle.current().pid();
    private final Supplier<Collection<ProcessHandle>> rankProcesses;
    private final Set<ListeningPorts.Endpoint> baseline;
    private final Set<ListeningPorts.Endpoint> seen = new ConcurrentSkipListSet<>();
    private final Thread sampler;
    private volatile boolean closed;

    /** Starts watching; {@code rankProcesses} gives the run's rank processes seen so far. */
    PortWatch(Supplier<Collection<ProcessHandle>> rankProcesses) {
        this.rankProcesses = rankProcesses;
        this.baseline = ListeningPorts.of(self);
        this.sampler = new Thread(this::sampleUntilClosed, "dfr-campaign-port-watch");
        sampler.setDaemon(true);
        sampler.start();
    }

    private void sampleUntilClosed() {
        while (!closed) {
            sample();
            try {
                Thread.sleep(SAMPLE_MILLIS);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private void sample() {
        for (ListeningPorts.Endpoint e : ListeningPorts.of(self)) {
            if (!baseline.contains(e)) {
                seen.add(e);
            }
        }
        for (ProcessHandle p : rankProcesses.get()) {
            seen.addAll(ListeningPorts.of(p.pid()));
        }
    }

    /** Stops sampling (the run ended). */
    @Override
    public void close() {
        closed = true;
        sampler.interrupt();
        try {
            sampler.join(TimeUnit.SECONDS.toMillis(5));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The ports the run was seen listening on. */
    Set<ListeningPorts.Endpoint> seen() {
        return new TreeSet<>(seen);
    }

    /**
     * What the run still listens on, waiting up to {@code waitMillis} for members that are still closing:
     * every port this JVM listens on that it did not before the trial, and every port of a live rank process.
     */
    List<String> stillListening(long waitMillis) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMillis);
        while (true) {
            List<String> left = new ArrayList<>();
            for (ListeningPorts.Endpoint e : ListeningPorts.of(self)) {
                if (!baseline.contains(e)) {
                    left.add(e + " (this JVM)");
                }
            }
            for (ProcessHandle p : rankProcesses.get()) {
                for (ListeningPorts.Endpoint e : ListeningPorts.of(p.pid())) {
                    left.add(e + " (process " + p.pid() + ")");
                }
            }
            if (left.isEmpty() || System.nanoTime() > deadline) {
                return left;
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return left;
            }
        }
    }
}
