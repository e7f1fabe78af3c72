package org.dfr.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.AnnotatedElement;
import java.util.ArrayList;
import java.util.IllegalFormatException;
import java.util.List;
import java.util.regex.Pattern;
import org.dfr.harness.experiment.SweepParameter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine;

/**
 * Every help text of every command renders: picocli formats descriptions as {@link String#format}
 * patterns, and a bare {@code %} (as in "20-50 % of it") makes it print a warning and the raw text.
 */
class HelpTextTest {

    @Test
    void when_theTopLevelHelpIsShown_then_everyCommandIsSummedUpInWholeSentences() {
        String help = DfrMain.commandLine().getUsageMessage(CommandLine.Help.Ansi.OFF);
        String commands = help.substring(help.indexOf("Commands:"));

        for (CommandLine sub : DfrMain.commandLine().getSubcommands().values()) {
            String summary = DfrMain.summary(sub.getCommandSpec().usageMessage());
            assertThat(summary).as(sub.getCommandName()).endsWith(".");
            assertThat(commands.replaceAll("\\s+", " ")).as(sub.getCommandName()).contains(summary);
        }
        assertThat(commands.replaceAll("\\s+", " "))
                .contains("rank, dfr-rank One rank of a processes-mode run: started by the dfr launcher, or by hand,"
                        + " ssh, srun or mpirun on each host of a cluster with the configuration `dfr run ..."
                        + " --write-rank-config FILE` wrote.");
    }

    @Test
    void when_experimentsHelpIsShown_then_itsSweepOptionNamesEverySettingASweepTakes() {
        String help = DfrMain.commandLine().getSubcommands().get("experiment")
                .getUsageMessage(CommandLine.Help.Ansi.OFF).replaceAll("\\s+", " ");

        for (SweepParameter p : SweepParameter.values()) {
            assertThat(help).as(p.label()).containsPattern("[ (]" + Pattern.quote(p.label()) + "[ ,(;.]");
        }
    }

    @Test
    void when_anyCommandIsAskedForItsVersion_then_itPrintsDfrsVersion() {
        String version = DfrMain.commandLine().getCommandSpec().version()[0];
        List<List<String>> commands = new ArrayList<>();
        collectCommands(DfrMain.commandLine(), List.of(), commands);
        assertThat(commands).as("nested commands are visited").anyMatch(c -> c.size() == 2);

        for (List<String> command : commands) {
            CommandLine cl = DfrMain.commandLine();
            StringWriter out = new StringWriter();
            cl.setOut(new PrintWriter(out));
            List<String> args = new ArrayList<>(command);
            args.add("--version");
            int code = cl.execute(args.toArray(String[]::new));
            assertThat(code).as(command.toString()).isZero();
            assertThat(out.toString().strip()).as(command.toString()).isEqualTo(version);
        }
    }

    /** Every command's words from the top ({@code [power, cap]}), picocli's help command left out. */
    private static void collectCommands(CommandLine cl, List<String> path, List<List<String>> into) {
        for (var e : cl.getSubcommands().entrySet()) {
            if (e.getKey().equals("help")) {
                continue; // picocli's help command takes a command name, not options
            }
            List<String> words = new ArrayList<>(path);
            words.add(e.getKey());
            into.add(words);
            collectCommands(e.getValue(), words, into);
        }
    }

    @Test
    void when_anyCommandsHelpIsShown_then_everyOptionsValueHasALabel() {
        // picocli's own label is the Java field's name in angle brackets: campaign --help showed --trials=<trials>
        List<String> unlabelled = new ArrayList<>();
        List<CommandSpec> commands = new ArrayList<>();
        collect(DfrMain.commandLine(), commands);
        for (CommandSpec command : commands) {
            for (ArgSpec arg : command.options()) {
                if (arg.arity().max() > 0 && arg.paramLabel().startsWith("<")) {
                    unlabelled.add(command.qualifiedName() + " " + arg.paramLabel());
                }
            }
        }
        assertThat(unlabelled).isEmpty();
    }

    @Test
    void when_anyCommandsHelpIsShown_then_everyDescriptionIsAValidFormat() {
        List<String> broken = new ArrayList<>();
        int checked = 0;
        List<CommandSpec> commands = new ArrayList<>();
        collect(DfrMain.commandLine(), commands);
        for (CommandSpec command : commands) {
            List<ArgSpec> args = new ArrayList<>(command.options());
            args.addAll(command.positionalParameters());
            for (ArgSpec arg : args) {
                for (String line : rawDescription(arg)) {
                    checked++;
                    if (!isValidFormat(line)) {
                        broken.add(command.qualifiedName() + " " + arg.paramLabel() + ": " + line);
                    }
                }
            }
            Command annotation = command.userObject().getClass().getAnnotation(Command.class);
            for (String line : annotation == null ? new String[0] : annotation.description()) {
                if (!isValidFormat(line)) {
                    broken.add(command.qualifiedName() + ": " + line);
                }
            }
        }
        assertThat(commands).hasSizeGreaterThan(5);
        assertThat(checked).as("descriptions read from the annotations").isGreaterThan(50);
        assertThat(broken).isEmpty();
    }

    /** The description as written in the annotation: picocli's model hands it out already formatted. */
    private static String[] rawDescription(ArgSpec arg) {
        if (arg.userObject() instanceof AnnotatedElement element) {
            Option option = element.getAnnotation(Option.class);
            if (option != null) {
                return option.description();
            }
            Parameters parameters = element.getAnnotation(Parameters.class);
            if (parameters != null) {
                return parameters.description();
            }
        }
        return new String[0];
    }

    private static boolean isValidFormat(String line) {
        try {
            String.format(line);
            return true;
        } catch (IllegalFormatException e) {
            return false;
        }
    }

    private static void collect(CommandLine cl, List<CommandSpec> into) {
        into.add(cl.getCommandSpec());
        cl.getSubcommands().values().forEach(sub -> collect(sub, into));
    }
}
