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

    /**
     * The rank died: its host's other ranks decide alone whether the host is idle (a dead rank never says it is
     * idle, and its host stayed uncapped while its survivor waited: an energy researcher's walk-through). Told by
     * every survivor, so more than once; a replacement on its host reports itself busy as any rank does.
     */
    default void rankGone(int rank) {
    }
}
