package org.dfr.cli.options;

import org.dfr.harness.experiment.Sweep;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** picocli converter for {@link Sweep}: {@code PARAMETER=V1,V2,...}, e.g. {@code fail-iteration=2,4,6}. */
public final class SweepConverter implements ITypeConverter<Sweep> {
    @Override
    public Sweep convert(String value) {
        try {
            return Sweep.parse(value);
        } catch (IllegalArgumentException e) {
            throw new TypeConversionException(e.getMessage());
        }
    }
}
