package org.dfr.cli.options;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A comma-separated list of hosts or addresses, host 0 first ({@code dfr run --hosts} and
 * {@code --host-addresses}). Empty entries are refused rather than dropped: {@code a,,b} and {@code a,}
 * are typos, and a dropped entry would move every later host's ranks.
 *
 * @param hosts the host names or addresses, none blank, at least one
 */
public record HostList(List<String> hosts) {

    /** Copies {@code hosts}; refuses an empty list or a blank entry. */
    public HostList {
        hosts = List.copyOf(hosts);
        if (hosts.isEmpty() || hosts.stream().anyMatch(String::isBlank)) {
            throw new IllegalArgumentException("a host list needs one or more non-empty hosts, got " + hosts);
        }
    }

    /**
     * Parses {@code HOST[,HOST...]}.
     *
     * @throws IllegalArgumentException naming the empty entry when there is one
     */
    public static HostList parse(String value) {
        Objects.requireNonNull(value, "value");
        List<String> hosts = new ArrayList<>();
        String[] parts = value.split(",", -1); // -1: keep trailing empty entries, to refuse them
        for (int i = 0; i < parts.length; i++) {
            String host = parts[i].trim();
            if (host.isEmpty()) {
                throw new IllegalArgumentException("'" + value + "' has an empty entry (number " + (i + 1)
                        + "): give HOST[,HOST...], one per host, host 0 first, without empty entries");
            }
            hosts.add(host);
        }
        return new HostList(hosts);
    }

    /** @return how many hosts */
    public int size() {
        return hosts.size();
    }

    @Override
    public String toString() {
        return String.join(",", hosts);
    }
}
