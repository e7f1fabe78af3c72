package org.dfr.runtime;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.instance.impl.HazelcastInstanceProxy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Cuts a dying rank's member off the network at the moment of its death when it is Hazelcast's master, before the
 * ranks of its JVM are told ({@link InJvmDeaths}) and long before its member has terminated.
 *
 * <p>Why. A SIGKILLed master closes every socket at once. A master of one JVM (embedded mode) lived on while its
 * death was told to the other ranks one by one, and under load that took 424 ms (campaign 159, trial 177). The
 * first rank told suspected it and closed its connections to it; the live master took those errors for that
 * rank's death, removed it, and sent the member list without it to the ranks not yet told. Two clusters came out,
 * each of which recovered the other's ranks as dead. With its sockets closed and its acceptor gone, a dying master
 * reaches nobody: what it decides afterwards stays with it, as with a killed process.
 *
 * <p>Only the master: no other member can remove a member, and the other deaths keep the order that
 * {@link InJvmDeaths} was measured with. Internal API (Hazelcast's {@code Node}); when it is not there, nothing is
 * cut off and the death goes ahead as before.
 */
final class MasterSilence {

    private static final Logger LOG = LoggerFactory.getLogger(MasterSilence.class);

    private MasterSilence() {
    }

    /**
     * Closes every connection of {@code member} and its server socket if it is the cluster's master.
     *
     * @return whether it was the master and was cut off
     */
    static boolean ifMaster(HazelcastInstance member) {
        try {
            if (member instanceof HazelcastInstanceProxy proxy && proxy.getOriginal().node.isMaster()) {
                proxy.getOriginal().node.getServer().shutdown();
                return true;
            }
        } catch (RuntimeException | LinkageError e) {
            LOG.debug("could not cut the dying master off the network: {}", e.toString());
        }
        return false;
    }
}
