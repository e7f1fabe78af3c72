package org.dfr.harness.campaign;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The TCP sockets a process listens on, read from Linux's {@code /proc}: its descriptors
 * ({@code /proc/PID/fd}, links {@code socket:[INODE]}) matched with the listening sockets of
 * {@code /proc/net/tcp} and {@code tcp6}. Where there is no {@code /proc} nothing is seen
 * ({@link #available()} says so).
 */
public final class ListeningPorts {

    /** State {@code TCP_LISTEN} in {@code /proc/net/tcp}. */
    private static final String LISTEN = "0A";

    private ListeningPorts() {
    }

    /** A listening address and port. */
    public record Endpoint(String address, int port) implements Comparable<Endpoint> {
        @Override
        public int compareTo(Endpoint o) {
            int c = Integer.compare(port, o.port);
            return c != 0 ? c : address.compareTo(o.address);
        }

        @Override
        public String toString() {
            return address + ":" + port;
        }
    }

    /** Whether this machine lets us see sockets this way. */
    public static boolean available() {
        return Files.isReadable(Path.of("/proc/net/tcp")) && Files.isDirectory(Path.of("/proc/self/fd"));
    }

    /** What process {@code pid} listens on now; empty when it is gone or cannot be read. */
    public static Set<Endpoint> of(long pid) {
        Set<Long> inodes = socketInodes(pid);
        Set<Endpoint> out = new TreeSet<>();
        if (inodes.isEmpty()) {
            return out;
        }
        Map<Long, Endpoint> listening = listeningByInode();
        for (long inode : inodes) {
            Endpoint e = listening.get(inode);
            if (e != null) {
                out.add(e);
            }
        }
        return out;
    }

    /** Inodes of the sockets process {@code pid} holds. */
    private static Set<Long> socketInodes(long pid) {
        Set<Long> out = new TreeSet<>();
        try (DirectoryStream<Path> fds = Files.newDirectoryStream(Path.of("/proc", Long.toString(pid), "fd"))) {
            for (Path fd : fds) {
                try {
                    String target = Files.readSymbolicLink(fd).toString();
                    if (target.startsWith("socket:[")) {
                        out.add(Long.parseLong(target.substring(8, target.length() - 1)));
                    }
                } catch (IOException | NumberFormatException e) {
                    // the descriptor closed meanwhile
                }
            }
        } catch (IOException | SecurityException e) {
            // gone, or not ours to read
        }
        return out;
    }

    /** Every listening TCP socket of this network namespace, by inode. */
    static Map<Long, Endpoint> listeningByInode() {
        Map<Long, Endpoint> out = new HashMap<>();
        for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
            List<String> lines;
            try {
                lines = Files.readAllLines(Path.of(table));
            } catch (IOException e) {
                continue;
            }
            for (String line : lines.subList(Math.min(1, lines.size()), lines.size())) {
                String[] f = line.trim().split("\\s+");
                if (f.length < 10 || !LISTEN.equals(f[3])) {
                    continue;
                }
                String[] local = f[1].split(":");
                try {
                    out.put(Long.parseLong(f[9]), new Endpoint(address(local[0]), Integer.parseInt(local[1], 16)));
                } catch (NumberFormatException e) {
                    // a line of another format: skip it
                }
            }
        }
        return out;
    }

    /** {@code /proc/net/tcp}'s hex address (32-bit words in host byte order, little-endian here) as text. */
    static String address(String hex) {
        if (hex.length() == 8) {
            long v = Long.parseLong(hex, 16);
            return (v & 0xff) + "." + ((v >> 8) & 0xff) + "." + ((v >> 16) & 0xff) + "." + ((v >> 24) & 0xff);
        }
        StringBuilder b = new StringBuilder();
        for (int word = 0; word < hex.length() / 8; word++) {
            String w = hex.substring(word * 8, word * 8 + 8);
            for (int i = 6; i >= 0; i -= 2) {
                b.append(w, i, i + 2);
                if (i == 4 || (i == 0 && word < hex.length() / 8 - 1)) {
                    b.append(':');
                }
            }
        }
        return "[" + b + "]";
    }
}
