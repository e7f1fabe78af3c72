package org.dfr.harness;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.RejectedExecutionException;
import org.junit.jupiter.api.Test;

/** A Hazelcast thread that dies with its stopped member is not news; anything else is printed as always. */
class StoppedMemberThreadsTest {

    @Test
    void when_aHazelcastThreadFindsItsExecutorShutDown_then_itIsNoise() {
        // as seen after a correct embedded run, and in a rank process (campaign seed 132)
        assertThat(StoppedMemberThreads.isStoppedMemberNoise("hz.dfr-1-rank6.cached.thread-7",
                new RejectedExecutionException("Executor[hz:io] was shut down."))).isTrue();
        assertThat(StoppedMemberThreads.isStoppedMemberNoise("hz.dfr-1-rank3.cached.thread-2",
                new RejectedExecutionException("Task ... rejected from LoggingScheduledExecutor@3d8642cb[Shutting down,"
                        + " pool size = 1]"))).isTrue();
    }

    @Test
    void when_anotherThreadOrAnotherFailure_then_itIsPrinted() {
        assertThat(StoppedMemberThreads.isStoppedMemberNoise("dfr-rank3",
                new RejectedExecutionException("Executor[hz:io] was shut down."))).isFalse();
        assertThat(StoppedMemberThreads.isStoppedMemberNoise("hz.dfr-1-rank6.cached.thread-7",
                new IllegalStateException("a real bug"))).isFalse();
        assertThat(StoppedMemberThreads.isStoppedMemberNoise("hz.dfr-1-rank6.cached.thread-7",
                new RejectedExecutionException("queue full"))).isFalse();
    }
}
