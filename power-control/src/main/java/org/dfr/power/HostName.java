package org.dfr.power;

import java.net.InetAddress;
import java.net.UnknownHostException;

/** The name this machine reports for itself, used to label journals and energy per host. */
public final class HostName {

    private HostName() {
    }

    /** @return the local host name, or {@code "localhost"} when the resolver cannot tell */
    public static String local() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "localhost";
        }
    }
}
