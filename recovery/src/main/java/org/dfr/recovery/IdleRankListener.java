package org.dfr.recovery;

/**
 * Told when a rank has nothing to do during a recovery and when it has work again; power control
 * caps a host's frequency while all its ranks are idle. "No capping" is {@link #NONE}.
 */
public interface IdleRankListener {

    IdleRankListener NONE = new IdleRankListener() {
        @Override
        public void rankIdle(int rank) {
        }

        @Override
        public void rankBusy(int rank) {
        }
    };

    /** The rank waits for the resume barrier without computing. */
    void rankIdle(int rank);

    /** The rank is about to compute; must return only once it may run at full speed. */
    void rankBusy(int rank);
}
