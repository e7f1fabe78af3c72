package org.dfr.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.hazelcast.core.Hazelcast;
import org.dfr.harness.RunConfig;
import org.dfr.harness.Runner;
import org.dfr.runtime.ClusterSettings;
import org.dfr.runtime.RunFailedException;
import org.junit.jupiter.api.Test;

/**
 * Embedded members that do not form their cluster: the run fails with the formation's own kind after
 * a second attempt, and no member of either attempt is left running in this JVM.
 */
class EmbeddedFormationIT {

    @Test
    void when_theMembersDoNotFormTheirCluster_then_theRunFailsAsSuchAndNoMemberIsLeft() {
        // a join timeout of 1 ms: no attempt can see its members settle in time
        ClusterSettings impatient = new ClusterSettings().joinTimeoutMillis(1);

        RunFailedException failure = catchThrowableOfType(
                () -> new Runner(impatient).run(RunConfig.of(2, 2, 37, 29, 4, 2)), RunFailedException.class);

        assertThat(failure).isNotNull();
        assertThat(failure.kind()).isEqualTo(RunFailedException.Kind.CLUSTER_NOT_FORMED);
        assertThat(Hazelcast.getAllHazelcastInstances()).as("members left in this JVM").isEmpty();
    }
}
