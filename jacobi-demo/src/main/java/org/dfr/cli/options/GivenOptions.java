package org.dfr.cli.options;

import java.util.List;
import java.util.Optional;
import picocli.CommandLine.Model.CommandSpec;

/**
 * Which options the user typed (not just their defaults), for the checks that refuse an option where it would
 * do nothing.
 */
public final class GivenOptions {

    private GivenOptions() {
    }

    /** The first of {@code names} given on {@code spec}'s command line, if any. */
    public static Optional<String> firstOf(CommandSpec spec, List<String> names) {
        return names.stream().filter(spec.commandLine().getParseResult()::hasMatchedOption).findFirst();
    }
}
