package org.dfr.cli.options;

import org.dfr.runtime.CheckpointReplication;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** picocli converter for {@link CheckpointReplication}: {@code hazelcast} or {@code data-plane}. */
public final class CheckpointReplicationConverter implements ITypeConverter<CheckpointReplication> {
    @Override
    public CheckpointReplication convert(String value) {
        try {
            return CheckpointReplication.ofOptionValue(value);
        } catch (IllegalArgumentException e) {
            throw new TypeConversionException("'" + value + "' is not a checkpoint replication: allowed are hazelcast,"
                    + " data-plane");
        }
    }
}
