package org.dfr.runtime;

/**
 * Which process of which machine a rank is: what a peer on the same machine needs to watch it through
 * {@code /proc} ({@link ExitWatch}). Advertised as member attributes.
 *
 * @param bootId     the machine's boot id: equal only for processes of one machine (and one boot)
 * @param pid        the process id
 * @param startTicks start time of the process in clock ticks after boot: a pid reused by another
 *                   process, or the same number in another pid namespace, has another
 */
public record ProcessIdentity(String bootId, long pid, long startTicks) {

    /** Member attribute: the boot id. */
    public static final String BOOT_ATTRIBUTE = "dfr.bootId";
    /** Member attribute: the process id. */
    public static final String PID_ATTRIBUTE = "dfr.pid";
    /** Member attribute: the start ticks. */
    public static final String START_ATTRIBUTE = "dfr.processStart";

    /** Whether {@code other} is a process of the same machine and boot, and not this one. */
    public boolean isOtherProcessOnThisMachine(ProcessIdentity other) {
        return bootId.equals(other.bootId) && pid != other.pid;
    }
}
