package org.dfr.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/** The stacks logged when a recovery decision does not come: every thread, every frame. */
class ThreadStacksTest {

    @Test
    void when_aThreadWaits_then_itsNameStateAndWaitingFrameAreListed() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        Thread waiter = new Thread(() -> {
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "dfr-test-waiter");
        waiter.start();
        try {
            org.awaitility.Awaitility.await().until(() -> waiter.getState() == Thread.State.WAITING);
            String stacks = ThreadStacks.ofAll();
            assertThat(stacks).contains("\"dfr-test-waiter\" WAITING")
                    .contains("java.util.concurrent.CountDownLatch.await(")
                    .contains("\"" + Thread.currentThread().getName() + "\" RUNNABLE")
                    .contains("ThreadStacksTest.when_aThreadWaits_then_itsNameStateAndWaitingFrameAreListed");
        } finally {
            release.countDown();
            waiter.join();
        }
    }
}
