package org.dfr.cli.options;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** picocli converter for {@link Sizes}: {@code N}, {@code AxB} or {@code AxBxC}. */
public final class SizesConverter implements ITypeConverter<Sizes> {
    @Override
    public Sizes convert(String value) {
        try {
            return Sizes.parse(value);
        } catch (IllegalArgumentException e) {
            throw new TypeConversionException(e.getMessage());
        }
    }
}
