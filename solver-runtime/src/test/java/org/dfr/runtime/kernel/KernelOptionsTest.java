package org.dfr.runtime.kernel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A user's bad value is a bad argument; a kernel reading what it did not declare is the kernel's bug. */
class KernelOptionsTest {

    private static final List<KernelOption> DECLARED = List.of(KernelOption.ofDouble("centre", 0.5, "weight"));

    @Test
    void when_theUserGivesAnUndeclaredKey_then_itIsABadArgument() {
        assertThatThrownBy(() -> KernelOptions.resolve("smooth", DECLARED, Map.of("colour", "red")))
                .isInstanceOf(IllegalArgumentException.class).isNotInstanceOf(KernelContractException.class)
                .hasMessageContaining("'colour'");
    }

    @Test
    void when_anIntegerOptionIsOutOfRange_then_theMessageSaysTheRangeNotThatItIsNoInteger() {
        KernelOption stride = KernelOption.ofInt("stride", 1, "a stride");

        assertThatThrownBy(() -> stride.check("99999999999")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("kernel option stride=99999999999 is not allowed: an integer from -2147483648 to 2147483647");
        assertThatThrownBy(() -> stride.check("abc")).hasMessage("kernel option stride=abc is not allowed: an integer");
        assertThat(stride.check(" 42 ")).isEqualTo("42");
    }

    @Test
    void when_theKernelReadsWhatItDidNotDeclare_then_itIsTheKernelsBug() {
        KernelOptions options = KernelOptions.resolve("smooth", DECLARED, Map.of("centre", "0.25"));

        assertThat(options.getDouble("centre")).isEqualTo(0.25);
        assertThatThrownBy(() -> options.getDouble("center")).isInstanceOf(KernelContractException.class)
                .hasMessageContaining("reads option 'center', which its options() do not declare (declared: [centre])");
        assertThatThrownBy(() -> options.getInt("centre")).isInstanceOf(KernelContractException.class)
                .hasMessageContaining("reads option 'centre' as an integer, but its value '0.25' is not one");
    }
}
