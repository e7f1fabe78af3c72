package org.dfr.recovery.power;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import org.dfr.power.sysfs.FakeCpufreqTree;
import org.dfr.runtime.RunSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IdleHostCappingTest {

    private static final long MIN_KHZ = 1_200_000;
    private static final long MAX_KHZ = 2_400_000;

    @TempDir
    Path tmp;

    /*
     *   host0: ranks 0 1   busy to the end
     *   host1: ranks 2 3   idle from the recovery to the end: capped when the run ends
     */
    @Test
    @SuppressWarnings("unchecked")
    void when_a_host_is_still_capped_as_the_run_ends_then_its_lift_is_counted_before_the_summary() throws IOException {
        Path sysfs = tmp.resolve("sysfs");
        FakeCpufreqTree.create(sysfs, 2, MIN_KHZ, MAX_KHZ);
        RunSpec spec = new RunSpec(4, 10, 5, 2, 0);
        try (IdleHostCapping capping = new IdleHostCapping(spec, sysfs, Set.of(0, 1), tmp.resolve("journals"))) {
            capping.rankIdle(2);
            capping.rankIdle(3);
            assertThat(scalingMax(sysfs, 1)).isEqualTo(MIN_KHZ);

            capping.liftRemaining();

            assertThat(scalingMax(sysfs, 1)).isEqualTo(MAX_KHZ);
            Map<String, Object> host1 = (Map<String, Object>) capping.summary().get("host1");
            assertThat(host1).containsEntry("capEvents", 1L).containsEntry("liftEvents", 1L);
            assertThat((Map<String, Object>) capping.summary().get("host0")).containsEntry("capEvents", 0L)
                    .containsEntry("liftEvents", 0L);
        }
        assertThat(scalingMax(sysfs, 1)).isEqualTo(MAX_KHZ);
    }

    private static long scalingMax(Path sysfs, int host) throws IOException {
        return Long.parseLong(Files.readString(sysfs.resolve("host" + host).resolve(FakeCpufreqTree.POLICY)
                .resolve("scaling_max_freq")).trim());
    }
}
