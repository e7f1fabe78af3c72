package org.dfr.runtime.net;

import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.SocketTimeoutException;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntConsumer;
import java.util.function.IntFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Point-to-point messages between ranks over TCP (loopback by default; each rank binds its host's
 * address). Every connection first presents the run's token, or it is closed unread.
 *
 * <p>Why not a Hazelcast structure: measured on this machine, an ITopic hop costs 70-125 us and
 * delivers to every member, an IMap set about 100 us and {@code submitToMember} about 150 us, while a
 * raw TCP message costs about 18 us. Halos are sent every iteration, so they take the direct path;
 * Hazelcast keeps membership, failure detection, checkpoints and agreement.
 *
 * <p>Ranks of the same cluster that live in the same JVM (embedded mode) hand messages to each
 * other's mailbox directly, as MPI's shared-memory transport does; ranks in other processes get
 * them over TCP. A rank that is killed leaves the in-JVM registry first, so a message to it fails
 * exactly as a refused connection does.
 *
 * <p>Frame: {@code kind, epoch, iteration, a, b, n} as ints, then {@code n} doubles, in the
 * machine's native byte order (both ends are on loopback). Each outbound connection encodes into,
 * and each inbound one reassembles frames from, one reused direct buffer: a heap buffer would be
 * copied into a temporary direct buffer by every socket write and read, and big-endian doubles
 * swapped one by one.
 *
 * <p>Death of a peer: a process killed with SIGKILL has its sockets closed by the kernel at once, so
 * its inbound connection ends (EOF or reset) within the next read. A connection that ends without
 * the {@link MessageKind#LEAVING} frame an orderly {@link #close} sends is reported to the
 * {@link #onPeerConnectionLost peer-loss listener} as a <em>suspicion</em> only; {@link #probe}
 * tells a dead peer (its listening socket refuses a connection) from a live one.
 *
 * <p>Inbound connections are non-blocking and share one selector. The thread that waits on the
 * mailbox reads them (see {@link Mailbox}); while nobody waits, a thread of this plane drains them
 * every {@value #IDLE_READ_INTERVAL_MILLIS} ms, so that a sender never stays blocked on the full
 * socket of a rank that is computing.
 */
public final class DataPlane implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(DataPlane.class);
    private static final int HEADER_BYTES = 6 * Integer.BYTES;
    /** Initial size of a connection's frame buffer: a halo of 8K doubles fits without growing. */
    private static final int MIN_BUFFER_BYTES = 64 * 1024;
    /**
     * How often the sockets are read while no thread waits on the mailbox: bounds how long a
     * sender can stay blocked on a full socket buffer of a rank that is busy computing.
     */
    public static final long IDLE_READ_INTERVAL_MILLIS = 5;

    /** Mailboxes of the ranks living in this JVM, per cluster name. */
    private static final Map<String, Map<Integer, Mailbox>> IN_JVM = new ConcurrentHashMap<>();

    private final int localRank;
    private final AtomicLong largestFrameBuffer = new AtomicLong(MIN_BUFFER_BYTES);
    private final String cluster;
    private final ServerSocketChannel server;
    private final Selector selector;
    /** The listening socket's own selector: {@link #acceptPending} may run on any thread beside the accept loop. */
    private final Selector acceptSelector;
    private final Object acceptLock = new Object();
    private final Mailbox mailbox;
    private final IntFunction<InetSocketAddress> addressOfRank;
    private final Map<Integer, Outbound> outbound = new ConcurrentHashMap<>();
    private final List<SocketChannel> inbound = new CopyOnWriteArrayList<>();
    /** Inbound connections not yet ended, by the rank at their other end. */
    private final Map<Integer, Integer> openInbound = new ConcurrentHashMap<>();
    /** Whether each rank's newest inbound connection came from a loopback address (the rank is on this machine). */
    private final Map<Integer, Boolean> inboundFromLoopback = new ConcurrentHashMap<>();
    /** The reader of each rank's newest inbound connection. */
    private final Map<Integer, FrameReader> readers = new ConcurrentHashMap<>();
    /** Accepted connections whose hello the accept loop still has to wait for ({@link #acceptPending}). */
    private final Queue<SlowHello> slowHellos = new ConcurrentLinkedQueue<>();
    private final List<Thread> threads = new CopyOnWriteArrayList<>();
    private volatile boolean closed;
    /** Told the rank of a peer whose connection ended without an orderly goodbye (see the class comment). */
    private volatile IntConsumer peerLossListener = r -> { };
    /** Told the rank at the other end of an inbound connection that ended, for whatever reason. */
    private volatile IntConsumer inboundEndListener = r -> { };
    /** The run's secret every connection presents first (see {@link #refusedConnections()}). */
    private final long token;
    private final AtomicLong refused = new AtomicLong();
    /** How long an accepted connection may take to present the token before it is closed. */
    static final int TOKEN_TIMEOUT_MILLIS = 2_000;

    /**
     * Opens the listening socket on 127.0.0.1 with an ephemeral port.
     *
     * @param addressOfRank where rank r listens; may return null for a rank that is not (yet) known
     */
    public DataPlane(int localRank, Mailbox mailbox, IntFunction<InetSocketAddress> addressOfRank) throws IOException {
        this(null, localRank, mailbox, addressOfRank);
    }

    /**
     * @param cluster the cluster name; ranks of the same cluster in this JVM exchange through memory.
     *     Null: always TCP.
     */
    public DataPlane(String cluster, int localRank, Mailbox mailbox, IntFunction<InetSocketAddress> addressOfRank)
            throws IOException {
        this(cluster, localRank, mailbox, addressOfRank, InetAddress.getLoopbackAddress(), 0L);
    }

    /**
     * @param bindAddress the address this rank listens on (its host's address)
     * @param token the run's secret: a connection must send it first, or it is closed unread
     */
    public DataPlane(String cluster, int localRank, Mailbox mailbox, IntFunction<InetSocketAddress> addressOfRank,
                     InetAddress bindAddress, long token) throws IOException {
        this(cluster, localRank, mailbox, addressOfRank, bindAddress, token, IDLE_READ_INTERVAL_MILLIS);
    }

    /**
     * @param idleReadIntervalMillis how often the sockets are read while nobody waits on the mailbox
     *     ({@value #IDLE_READ_INTERVAL_MILLIS} ms by default); 0: never, so that what arrives stays unread until
     *     somebody waits or calls {@link Mailbox#readIfNobodyReads} (for tests of what happens meanwhile)
     */
    public DataPlane(String cluster, int localRank, Mailbox mailbox, IntFunction<InetSocketAddress> addressOfRank,
                     InetAddress bindAddress, long token, long idleReadIntervalMillis) throws IOException {
        if (idleReadIntervalMillis < 0) {
            throw new IllegalArgumentException("idle read interval must be 0 (none) or positive: " + idleReadIntervalMillis);
        }
        this.token = token;
        this.localRank = localRank;
        this.cluster = cluster;
        this.mailbox = mailbox;
        this.addressOfRank = addressOfRank;
        this.server = ServerSocketChannel.open();
        server.bind(new InetSocketAddress(bindAddress, 0));
        server.configureBlocking(false);
        this.acceptSelector = Selector.open();
        server.register(acceptSelector, SelectionKey.OP_ACCEPT);
        this.selector = Selector.open();
        mailbox.attach(new SocketInbound());
        startThread(this::acceptLoop, "accept");
        if (idleReadIntervalMillis > 0) {
            long intervalNanos = TimeUnit.MILLISECONDS.toNanos(idleReadIntervalMillis);
            startThread(() -> idleReadLoop(intervalNanos), "idle-read");
        }
        if (cluster != null) {
            IN_JVM.computeIfAbsent(cluster, c -> new ConcurrentHashMap<>()).put(localRank, mailbox);
        }
    }

    private void startThread(Runnable body, String role) {
        Thread thread = new Thread(body, "dfr-rank" + localRank + "-" + role);
        thread.setDaemon(true);
        threads.add(thread);
        thread.start();
    }

    /**
     * Sets who is told when a peer's connection ends without the {@link MessageKind#LEAVING} frame of
     * an orderly close, or a send to it fails: a suspicion of death, to be confirmed ({@link #probe}).
     * Called on a reading or sending thread; must not block.
     */
    public void onPeerConnectionLost(IntConsumer listener) {
        this.peerLossListener = listener == null ? r -> { } : listener;
    }

    /**
     * Sets who is told, with the rank at the other end, when an inbound connection ended (EOF, a reset, or after
     * a goodbye): every frame it carried has been delivered by then. Called on a reading thread; must not block.
     */
    public void onInboundEnded(IntConsumer listener) {
        this.inboundEndListener = listener == null ? r -> { } : listener;
    }

    /**
     * Whether an inbound connection from {@code rank} is open here: frames it sent may still be unread. A
     * connection still waiting in the listening socket's queue is not counted; {@link #acceptPending} first.
     */
    public boolean hasOpenInboundFrom(int rank) {
        return openInbound.containsKey(rank);
    }

    /** Whether {@code rank}'s newest inbound connection here came from a loopback address: it runs on this machine. */
    public boolean isInboundFromLoopback(int rank) {
        return inboundFromLoopback.getOrDefault(rank, false);
    }

    /** The read pass of the mailbox in which bytes from {@code rank} were last read; -1 if none ever were. */
    public long lastPassWithDataFrom(int rank) {
        FrameReader reader = readers.get(rank);
        return reader == null ? -1 : reader.lastPassWithData;
    }

    /** What {@link #probe} found out about a peer. */
    public enum PeerState {
        /** Its listening socket refused the connection: its process is gone or closed its plane. */
        DEAD,
        /** The connection was established (a paused process's kernel still accepts connections). */
        ALIVE,
        /** Unknown: no address, or no answer within the timeout (a vanished host; Hazelcast's heartbeat decides). */
        UNKNOWN
    }

    /**
     * Tries a new connection to {@code rank}'s listening socket, bounded by {@code timeoutMillis}.
     * On loopback or a live host a closed port is refused at once, so a dead rank is told in well
     * under a millisecond; a rank stopped by SIGSTOP still has its socket, and its kernel accepts.
     * A successful probe presents the token and says goodbye, so the peer suspects nothing.
     */
    public PeerState probe(int rank, int timeoutMillis) {
        return probe(rank, timeoutMillis, 0);
    }

    /**
     * {@link #probe(int, int)}, and when the connection is established, waits up to {@code lingerMillis}
     * for it to be reset or closed: a process being killed has its sockets closed one after the
     * other, so its listening socket may still take a connection for a moment after another of its
     * connections ended; when that socket closes, the connection waiting in it is reset. A live peer
     * keeps the connection open (it waits for this end to close it after the goodbye).
     */
    public PeerState probe(int rank, int timeoutMillis, int lingerMillis) {
        InetSocketAddress address = addressOfRank.apply(rank);
        if (address == null) {
            return PeerState.UNKNOWN;
        }
        try (SocketChannel channel = SocketChannel.open()) {
            channel.socket().connect(address, timeoutMillis);
            ByteBuffer hello = helloAndGoodbye();
            while (hello.hasRemaining()) {
                channel.write(hello);
            }
            if (lingerMillis > 0) {
                channel.socket().setSoTimeout(lingerMillis);
                try {
                    return channel.socket().getInputStream().read() < 0 ? PeerState.DEAD : PeerState.ALIVE;
                } catch (SocketTimeoutException e) {
                    return PeerState.ALIVE;
                } catch (IOException e) {
                    // reset: the listening socket closed with this connection still in it
                    return PeerState.DEAD;
                }
            }
            return PeerState.ALIVE;
        } catch (ConnectException e) {
            return PeerState.DEAD;
        } catch (IOException e) {
            LOG.debug("rank {}: probe of rank {} at {} inconclusive: {}", localRank, rank, address, e.toString());
            return PeerState.UNKNOWN;
        }
    }

    /**
     * Whether {@code rank} listens on a loopback address (every rank of a run on one machine): a
     * connection there is refused or accepted by the kernel at once, so a {@link #probe} never waits.
     */
    public boolean isOnLoopback(int rank) {
        InetSocketAddress address = addressOfRank.apply(rank);
        return address != null && address.getAddress() != null && address.getAddress().isLoopbackAddress();
    }

    /** Whether {@code rank} lives in this JVM (embedded mode): messages to it are handed over in memory. */
    public boolean isInJvm(int rank) {
        return rank == localRank || (cluster != null && inJvmMailbox(rank) != null);
    }

    /** The hello every connection starts with: the run's token and the connecting rank. */
    private ByteBuffer hello() {
        return ByteBuffer.allocate(HELLO_BYTES).putLong(token).putInt(localRank).flip();
    }

    private ByteBuffer helloAndGoodbye() {
        ByteBuffer b = ByteBuffer.allocate(HELLO_BYTES + HEADER_BYTES).order(ByteOrder.nativeOrder());
        b.order(ByteOrder.BIG_ENDIAN).putLong(token).putInt(localRank).order(ByteOrder.nativeOrder());
        b.putInt(MessageKind.LEAVING.ordinal()).putInt(0).putInt(0).putInt(localRank).putInt(0).putInt(0);
        return b.flip();
    }

    /** Bytes of the hello: token and rank. */
    private static final int HELLO_BYTES = Long.BYTES + Integer.BYTES;

    /** The port this rank listens on (published to the other ranks through a member attribute). */
    public int port() {
        try {
            return ((InetSocketAddress) server.getLocalAddress()).getPort();
        } catch (IOException e) {
            throw new IllegalStateException("data plane socket closed", e);
        }
    }

    public Mailbox mailbox() {
        return mailbox;
    }

    /**
     * Sends one message to {@code rank}. A message to this rank itself, or to a rank in this JVM,
     * goes straight to its mailbox; the receiver gets the array itself, so the caller must not
     * modify it afterwards.
     *
     * @throws CommunicationException when the peer cannot be reached
     */
    public void send(int rank, MessageKey key, double[] payload) {
        send(rank, key, payload, 0, payload.length, false);
    }

    /**
     * Sends {@code payload[from, to)} as one message to {@code rank}: over TCP straight from the array,
     * and to a rank in this JVM as a copy of the range (the caller may modify the array afterwards).
     *
     * @throws CommunicationException when the peer cannot be reached
     */
    public void send(int rank, MessageKey key, double[] payload, int from, int to) {
        send(rank, key, payload, from, to, true);
    }

    private void send(int rank, MessageKey key, double[] payload, int from, int to, boolean copyInJvm) {
        if (closed) {
            // a killed rank's threads in this JVM must not go on talking to the living
            throw new CommunicationException("rank " + localRank + " cannot send " + key.kind() + ": its data plane is closed",
                    null);
        }
        if (rank == localRank || cluster != null) {
            Mailbox peer = rank == localRank ? mailbox : inJvmMailbox(rank);
            if (peer != null) {
                double[] delivered = payload;
                if (copyInJvm) {
                    delivered = peer.payloadArray(key.kind(), to - from);
                    System.arraycopy(payload, from, delivered, 0, to - from);
                }
                peer.deliver(key, delivered);
                return;
            }
        }
        Outbound out = connection(rank);
        try {
            out.write(key, payload, from, to);
        } catch (IOException e) {
            outbound.remove(rank, out);
            closeQuietly(out.channel);
            if (!closed) {
                peerLossListener.accept(rank);
            }
            throw new CommunicationException("cannot send " + key + " to rank " + rank + ": " + e.getMessage(), e);
        }
    }

    /**
     * Hands {@code payload} itself, not a copy, to {@code rank} in this JVM (embedded mode): it is delivered on this
     * thread before this returns. Never over TCP, where one message is never larger than a slice.
     *
     * @throws CommunicationException when {@code rank} is not a live rank of this JVM, or this plane is closed
     */
    public void lend(int rank, MessageKey key, double[] payload) {
        Mailbox peer = closed || rank == localRank || cluster == null ? null : inJvmMailbox(rank);
        if (peer == null) {
            throw new CommunicationException("rank " + localRank + " cannot lend " + key.kind() + " to rank " + rank
                    + ": " + (closed ? "its data plane is closed" : "not a live rank of this JVM"), null);
        }
        peer.deliver(key, payload);
    }

    private Mailbox inJvmMailbox(int rank) {
        Map<Integer, Mailbox> local = IN_JVM.get(cluster);
        return local == null ? null : local.get(rank);
    }

    private Outbound connection(int rank) {
        Outbound existing = outbound.get(rank);
        if (existing != null) {
            return existing;
        }
        synchronized (outbound) {
            existing = outbound.get(rank);
            if (existing != null) {
                return existing;
            }
            InetSocketAddress address = addressOfRank.apply(rank);
            if (address == null) {
                throw new CommunicationException("rank " + rank + " is not a member of the cluster", null);
            }
            try {
                SocketChannel channel = SocketChannel.open();
                channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
                channel.socket().connect(address, 5_000);
                ByteBuffer hello = hello();
                while (hello.hasRemaining()) {
                    channel.write(hello);
                }
                Outbound created = new Outbound(channel, largestFrameBuffer);
                outbound.put(rank, created);
                return created;
            } catch (IOException e) {
                throw new CommunicationException("cannot connect to rank " + rank + " at " + address + ": " + e.getMessage(), e);
            }
        }
    }

    /** One outbound connection and the buffer its frames are encoded into (guarded by this object). */
    private static final class Outbound {
        final SocketChannel channel;
        private final AtomicLong largestFrameBuffer;
        private ByteBuffer frame = newFrameBuffer();

        Outbound(SocketChannel channel, AtomicLong largestFrameBuffer) {
            this.channel = channel;
            this.largestFrameBuffer = largestFrameBuffer;
        }

        synchronized void write(MessageKey key, double[] payload, int from, int to) throws IOException {
            int length = to - from;
            frame = ensureCapacity(frame, HEADER_BYTES + length * Double.BYTES, largestFrameBuffer);
            frame.clear();
            frame.putInt(key.kind().ordinal()).putInt(key.epoch()).putInt(key.iteration())
                    .putInt(key.a()).putInt(key.b()).putInt(length);
            frame.asDoubleBuffer().put(payload, from, length);
            frame.limit(HEADER_BYTES + length * Double.BYTES).position(0);
            while (frame.hasRemaining()) {
                channel.write(frame);
            }
        }
    }

    private static ByteBuffer newFrameBuffer() {
        return ByteBuffer.allocateDirect(MIN_BUFFER_BYTES).order(ByteOrder.nativeOrder());
    }

    /**
     * {@code buffer} if it holds {@code bytes}, else a new one of at least twice its size, whose size
     * {@code largest} then remembers if it is the largest so far.
     */
    private static ByteBuffer ensureCapacity(ByteBuffer buffer, int bytes, AtomicLong largest) {
        if (buffer.capacity() >= bytes) {
            return buffer;
        }
        ByteBuffer larger = ByteBuffer.allocateDirect(Math.max(bytes, 2 * buffer.capacity())).order(ByteOrder.nativeOrder());
        largest.accumulateAndGet(larger.capacity(), Math::max);
        return larger;
    }

    /**
     * The largest frame buffer of any connection so far, in bytes: each connection keeps its buffer,
     * in direct memory, until the plane closes, so this bounds what one connection holds (a message of
     * {@code n} doubles needs {@code 24 + 8n} bytes).
     */
    public long largestFrameBufferBytes() {
        return largestFrameBuffer.get();
    }

    /** Drops the connection to a rank (after it died), so that nothing is written to a dead socket. */
    public void forget(int rank) {
        Outbound out = outbound.remove(rank);
        if (out != null) {
            closeQuietly(out.channel);
        }
    }

    private void acceptLoop() {
        while (!closed) {
            try {
                acceptSelector.select();
                acceptSelector.selectedKeys().clear();
            } catch (ClosedSelectorException e) {
                return;
            } catch (IOException e) {
                if (!closed) {
                    LOG.warn("rank {}: waiting for connections failed: {}", localRank, e.toString());
                }
                return;
            }
            if (!acceptPending()) {
                return;
            }
            admitSlowHellos();
            // a rank waiting on its mailbox alone starts reading the new connections once woken (not under the
            // accept lock: what is read may lead to a loss being judged, which admits connections itself)
            mailbox.readIfNobodyReads();
        }
    }

    /**
     * Admits, on the calling thread and without waiting, every connection waiting in the listening socket's queue
     * whose hello (token and rank) has arrived: a peer may have connected, sent and died before the accept loop got
     * the processor, and what it sent counts. A connection whose hello is not all there yet goes to the accept loop,
     * which waits for it (up to {@value #TOKEN_TIMEOUT_MILLIS} ms): no other thread ever waits for a slow or foreign
     * client. Does nothing on an interrupted thread (an interrupted channel operation would close the connection).
     * Must not be called holding a lock that a delivery may need: connections are admitted under the accept lock.
     *
     * @return false once the listening socket is closed or failed
     */
    public boolean acceptPending() {
        if (Thread.currentThread().isInterrupted()) {
            return !closed;
        }
        boolean slow = false;
        try {
            synchronized (acceptLock) {
                while (!closed) {
                    SocketChannel channel;
                    try {
                        channel = server.accept();
                    } catch (ClosedChannelException e) {
                        return false;
                    } catch (IOException e) {
                        if (!closed) {
                            LOG.warn("rank {}: accept failed: {}", localRank, e.toString());
                        }
                        return false;
                    }
                    if (channel == null) {
                        return true;
                    }
                    ByteBuffer hello = ByteBuffer.allocate(HELLO_BYTES);
                    try {
                        channel.configureBlocking(false);
                        if (channel.read(hello) < 0) {
                            refuse(channel, "it closed before its token");
                            continue;
                        }
                    } catch (IOException e) {
                        refuse(channel, "no token (" + e + ")");
                        continue;
                    }
                    if (hello.hasRemaining()) {
                        slowHellos.add(new SlowHello(channel, hello));
                        slow = true;
                    } else {
                        admit(channel, hello.flip());
                    }
                }
                return false;
            }
        } finally {
            if (slow) {
                acceptSelector.wakeup();
            }
        }
    }

    /** A connection whose hello had not all arrived when it was accepted, and what of it had. */
    private record SlowHello(SocketChannel channel, ByteBuffer hello) {
    }

    /** On the accept loop: waits for the rest of each slow hello, up to {@value #TOKEN_TIMEOUT_MILLIS} ms. */
    private void admitSlowHellos() {
        SlowHello h;
        while ((h = slowHellos.poll()) != null) {
            ByteBuffer hello = h.hello();
            try {
                h.channel().configureBlocking(true);
                h.channel().socket().setSoTimeout(TOKEN_TIMEOUT_MILLIS);
                InputStream in = h.channel().socket().getInputStream();
                while (hello.hasRemaining()) {
                    int n = in.read(hello.array(), hello.position(), hello.remaining());
                    if (n < 0) {
                        throw new EOFException("closed before its token");
                    }
                    hello.position(hello.position() + n);
                }
            } catch (IOException | RuntimeException e) {
                refuse(h.channel(), "no token (" + e + ")");
                continue;
            }
            synchronized (acceptLock) {
                admit(h.channel(), hello.flip());
            }
        }
    }

    /** Registers a connection whose hello arrived whole, or refuses it when the token is not this run's. */
    private void admit(SocketChannel channel, ByteBuffer hello) {
        long presented = hello.getLong();
        int peer = hello.getInt();
        if (presented != token) {
            refuse(channel, "it did not present this run's token");
            return;
        }
        try {
            channel.configureBlocking(false);
            channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            SocketAddress remote = channel.getRemoteAddress();
            inboundFromLoopback.put(peer, remote instanceof InetSocketAddress a && a.getAddress().isLoopbackAddress());
            openInbound.merge(peer, 1, Integer::sum);
            inbound.add(channel);
            FrameReader reader = new FrameReader(channel, peer);
            channel.register(selector, SelectionKey.OP_READ, reader);
            readers.put(peer, reader);
        } catch (IOException | ClosedSelectorException e) {
            inbound.remove(channel);
            openInbound.computeIfPresent(peer, (r, n) -> n > 1 ? n - 1 : null);
            closeQuietly(channel);
            if (!closed) {
                LOG.warn("rank {}: could not admit the connection of rank {}: {}", localRank, peer, e.toString());
            }
            return;
        }
        // a select in progress only sees the new channel from its next round
        selector.wakeup();
    }

    private void refuse(SocketChannel channel, String why) {
        String from;
        try {
            from = String.valueOf(channel.getRemoteAddress());
        } catch (IOException e) {
            from = "?";
        }
        LOG.warn("rank {}: refused a data-plane connection from {}: {}", localRank, from, why);
        refused.incrementAndGet();
        closeQuietly(channel);
    }

    /** Connections closed because they did not present the run's token. */
    public long refusedConnections() {
        return refused.get();
    }

    /** Takes messages off the sockets while nobody waits for one (see {@link Mailbox}). */
    private void idleReadLoop(long intervalNanos) {
        while (!closed) {
            LockSupport.parkNanos(intervalNanos);
            mailbox.readIfNobodyReads();
        }
    }

    /** The sockets of this plane, read by whichever thread waits on its mailbox. */
    private final class SocketInbound implements Mailbox.Inbound {

        @Override
        public boolean readFor(long timeoutNanos) {
            if (closed) {
                return false;
            }
            try {
                if (timeoutNanos <= 0) {
                    selector.selectNow();
                } else {
                    // select(0) would wait for ever
                    selector.select(Math.max(1, TimeUnit.NANOSECONDS.toMillis(timeoutNanos)));
                }
                Set<SelectionKey> ready = selector.selectedKeys();
                for (SelectionKey key : ready) {
                    ((FrameReader) key.attachment()).readAvailable(key);
                }
                ready.clear();
                return true;
            } catch (ClosedSelectorException e) {
                return false;
            } catch (IOException e) {
                if (!closed) {
                    LOG.warn("rank {}: reading the data plane failed: {}", localRank, e.toString());
                }
                return !closed;
            }
        }

        @Override
        public void wakeUp() {
            selector.wakeup();
        }

        @Override
        public boolean hasConnections() {
            return !inbound.isEmpty();
        }
    }

    /**
     * Reassembles the frames of one inbound connection from whatever its reads return: a frame may
     * arrive in pieces, and several may arrive in one read.
     */
    private final class FrameReader {
        private final SocketChannel channel;
        /** The rank at the other end (from its hello). */
        private final int peer;
        /** Whether the peer said goodbye ({@link MessageKind#LEAVING}): its end of stream is no death. */
        private boolean orderly;
        private ByteBuffer buffer = newFrameBuffer();
        /** The mailbox's read pass in which bytes of this connection were last read ({@link Mailbox#readPassesBegun}). */
        private volatile long lastPassWithData = -1;

        FrameReader(SocketChannel channel, int peer) {
            this.channel = channel;
            this.peer = peer;
        }

        void readAvailable(SelectionKey key) {
            try {
                while (true) {
                    int n = channel.read(buffer);
                    if (n < 0) {
                        throw new EOFException();
                    }
                    if (n > 0) {
                        lastPassWithData = mailbox.readPassesBegun();
                    }
                    boolean filled = !buffer.hasRemaining();
                    deliverCompleteFrames();
                    if (!filled) {
                        return;
                    }
                }
            } catch (IOException | RuntimeException e) {
                // peer closed or died: without its goodbye, a suspicion for the listener to confirm
                if (!closed && !(e instanceof EOFException)) {
                    LOG.debug("rank {}: inbound connection from rank {} lost: {}", localRank, peer, e.toString());
                }
                key.cancel();
                inbound.remove(channel);
                readers.remove(peer, this);
                openInbound.computeIfPresent(peer, (r, n) -> n > 1 ? n - 1 : null);
                closeQuietly(channel);
                if (!closed && !orderly) {
                    peerLossListener.accept(peer);
                }
                if (!closed) {
                    inboundEndListener.accept(peer);
                }
            }
        }

        /** Delivers every complete frame in the buffer and keeps the rest, growing it for a large frame. */
        private void deliverCompleteFrames() {
            buffer.flip();
            while (buffer.remaining() >= HEADER_BYTES) {
                int start = buffer.position();
                int frameBytes = HEADER_BYTES + buffer.getInt(start + 5 * Integer.BYTES) * Double.BYTES;
                if (buffer.remaining() < frameBytes) {
                    break;
                }
                MessageKey key = new MessageKey(buffer.getInt(start + Integer.BYTES),
                        MessageKind.ofOrdinal(buffer.getInt(start)), buffer.getInt(start + 2 * Integer.BYTES),
                        buffer.getInt(start + 3 * Integer.BYTES), buffer.getInt(start + 4 * Integer.BYTES));
                double[] payload = mailbox.payloadArray(key.kind(), (frameBytes - HEADER_BYTES) / Double.BYTES);
                buffer.position(start + HEADER_BYTES);
                buffer.asDoubleBuffer().get(payload);
                buffer.position(start + frameBytes);
                if (key.kind() == MessageKind.LEAVING) {
                    orderly = true;
                    continue;
                }
                mailbox.deliver(key, payload);
            }
            int needed = buffer.remaining() >= HEADER_BYTES
                    ? HEADER_BYTES + buffer.getInt(buffer.position() + 5 * Integer.BYTES) * Double.BYTES
                    : HEADER_BYTES;
            if (needed > buffer.capacity()) {
                ByteBuffer larger = ensureCapacity(buffer, needed, largestFrameBuffer);
                larger.clear();
                larger.put(buffer);
                buffer = larger;
            } else {
                buffer.compact();
            }
        }
    }

    /**
     * Closes in order: every peer this rank sent to gets a {@link MessageKind#LEAVING} frame first, so
     * the end of the connection is not taken for a death.
     */
    @Override
    public void close() {
        if (!closed) {
            for (Map.Entry<Integer, Outbound> e : outbound.entrySet()) {
                try {
                    e.getValue().write(new MessageKey(0, MessageKind.LEAVING, 0, localRank, 0), new double[0], 0, 0);
                } catch (IOException | RuntimeException ex) {
                    // the peer is gone already: nothing to tell it
                }
            }
        }
        closeAbruptly();
    }

    /** Closes without a goodbye, as a death does (an in-JVM rank killed in embedded mode). */
    public void closeAbruptly() {
        closed = true;
        if (cluster != null) {
            IN_JVM.computeIfPresent(cluster, (c, ranks) -> {
                ranks.remove(localRank, mailbox);
                return ranks.isEmpty() ? null : ranks;
            });
        }
        closeQuietly(server);
        closeQuietly(acceptSelector);
        closeQuietly(selector);
        outbound.values().forEach(o -> closeQuietly(o.channel));
        outbound.clear();
        inbound.forEach(DataPlane::closeQuietly);
        for (Thread t : threads) {
            try {
                t.join(2_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private static void closeQuietly(Closeable closeable) {
        try {
            closeable.close();
        } catch (IOException ignored) {
            // closing: nothing left to do
        }
    }
}
