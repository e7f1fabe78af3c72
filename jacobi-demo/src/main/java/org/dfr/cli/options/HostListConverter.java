package org.dfr.cli.options;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** picocli converter for {@link HostList}: {@code HOST[,HOST...]}, no empty entries. */
public final class HostListConverter implements ITypeConverter<HostList> {
    @Override
    public HostList convert(String value) {
        try {
            return HostList.parse(value);
        } catch (IllegalArgumentException e) {
            throw new TypeConversionException(e.getMessage());
        }
    }
}
