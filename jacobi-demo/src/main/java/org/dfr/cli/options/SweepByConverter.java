package org.dfr.cli.options;

import org.dfr.harness.experiment.Sweep;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** picocli converter for {@link Sweep.By}: {@code PARAMETER=V1,V2,...}, e.g. {@code ranks-per-host=2,4}. */
public final class SweepByConverter implements ITypeConverter<Sweep.By> {
    @Override
    public Sweep.By convert(String value) {
        try {
            return Sweep.By.parse(value);
        } catch (IllegalArgumentException e) {
            throw new TypeConversionException(e.getMessage());
        }
    }
}
