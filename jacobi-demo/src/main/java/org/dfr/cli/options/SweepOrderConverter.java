package org.dfr.cli.options;

import org.dfr.harness.experiment.Sweep;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** picocli converter for {@link Sweep.Order}: {@code interleaved} or {@code sequential}. */
public final class SweepOrderConverter implements ITypeConverter<Sweep.Order> {
    @Override
    public Sweep.Order convert(String value) {
        try {
            return Sweep.Order.parse(value);
        } catch (IllegalArgumentException e) {
            throw new TypeConversionException(e.getMessage());
        }
    }
}
