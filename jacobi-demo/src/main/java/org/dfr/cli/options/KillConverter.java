package org.dfr.cli.options;

import org.dfr.recovery.FaultPlan;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** picocli converter for {@code RANK@ITER} (and {@code HOST@ITER}): a kill at the start of an iteration. */
public final class KillConverter implements ITypeConverter<FaultPlan.Kill> {
    @Override
    public FaultPlan.Kill convert(String value) {
        try {
            FaultPlan.Kill kill = FaultPlan.parseKill(value);
            if (kill.rank() < 0 || kill.iteration() < 1) {
                throw new TypeConversionException("'" + value + "': the rank must be >= 0 and the iteration >= 1"
                        + " (a failure at iteration I kills at the start of I)");
            }
            return kill;
        } catch (IllegalArgumentException e) {
            throw new TypeConversionException(e.getMessage());
        }
    }
}
