package org.dfr.cli.options;

import org.dfr.recovery.Strategy;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** picocli converter for {@link Strategy}: {@code global} or {@code dfr}. */
public final class StrategyConverter implements ITypeConverter<Strategy> {
    @Override
    public Strategy convert(String value) {
        try {
            return Strategy.parse(value);
        } catch (IllegalArgumentException e) {
            throw new TypeConversionException("'" + value + "' is not a strategy: allowed are global, dfr");
        }
    }
}
