package org.dfr.cli.options;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.TypeConversionException;

/**
 * One {@code --kernel-option KEY=VALUE}. A list of them rather than picocli's map, because a map lets a
 * repeated key overwrite the first silently, and two values for one key are a typing mistake to name.
 *
 * @param key   the option's key, before the first {@code =}
 * @param value the rest, possibly empty
 */
public record KernelOptionArgument(String key, String value) {

    /** The kernel options as a map in the order given, refusing a key given twice (exit code 2). */
    public static Map<String, String> toMap(CommandSpec spec, List<KernelOptionArgument> arguments) {
        Map<String, String> options = new LinkedHashMap<>();
        for (KernelOptionArgument a : arguments) {
            String earlier = options.putIfAbsent(a.key(), a.value());
            if (earlier != null) {
                throw new ParameterException(spec.commandLine(), "--kernel-option " + a.key() + " is given twice ("
                        + a.key() + "=" + earlier + " and " + a.key() + "=" + a.value() + "): give each key once");
            }
        }
        return options;
    }

    /** picocli converter for {@code KEY=VALUE}. */
    public static final class Converter implements ITypeConverter<KernelOptionArgument> {
        @Override
        public KernelOptionArgument convert(String text) {
            int eq = text.indexOf('=');
            if (eq <= 0) {
                throw new TypeConversionException("'" + text + "' is not KEY=VALUE (`dfr kernels` lists each kernel's"
                        + " options)");
            }
            return new KernelOptionArgument(text.substring(0, eq), text.substring(eq + 1));
        }
    }
}
