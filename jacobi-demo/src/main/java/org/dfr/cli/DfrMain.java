package org.dfr.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.dfr.harness.Provenance;
import org.dfr.harness.RankProcessMain;
import org.dfr.harness.StoppedMemberThreads;
import org.dfr.power.freq.LeftoverJournals;
import org.dfr.runtime.RunFailedException;
import org.dfr.runtime.ThrownAt;
import org.dfr.runtime.kernel.KernelContractException;
import org.dfr.runtime.kernel.KernelOptionException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Help.Column;
import picocli.CommandLine.Help.TextTable;
import picocli.CommandLine.Model.UsageMessageSpec;

/**
 * The {@code dfr} command line: one subcommand class per job.
 */
@Command(name = "dfr",
        mixinStandardHelpOptions = true,
        version = "dfr 0.1.0",
        description = "Data-flow-driven localised rollback for iterative solvers.",
        subcommands = {
                PlanCommand.class,
                RunCommand.class,
                KernelsCommand.class,
                SimulateCommand.class,
                RankProcessMain.class,
                CampaignCommand.class,
                BenchCommand.class,
                RecoveryBenchCommand.class,
                PowerCommand.class,
                ExperimentCommand.class,
                PoolCommand.class,
                CommandLine.HelpCommand.class
        })
public final class DfrMain implements Runnable {

    /** The full stop that ends a sentence, not one of an ellipsis ("dfr run ... --option"). */
    private static final Pattern SENTENCE_END = Pattern.compile("(?<!\\.)\\.(?!\\.)(\\s|$)");

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "Missing subcommand");
    }

    /** Rank processes leave leftover journals to their launcher, which may hold the cap right now. */
    private static final Set<String> RANK_COMMANDS = Set.of("rank", "dfr-rank");

    /**
     * A launcher SIGKILLed while it capped a host leaves a restore journal; whatever dfr command runs next
     * puts the limits back and says so, on stderr.
     */
    private static void restoreLeftoverJournals() {
        for (LeftoverJournals.Outcome outcome : LeftoverJournals.restoreAll(LeftoverJournals.defaultDirectory())) {
            System.err.println("dfr: " + outcome.message());
        }
        System.err.flush();
    }

    /** Builds the command line with the project's shared settings (used by tests too). */
    public static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new DfrMain());
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        cl.setParameterExceptionHandler(DfrMain::oneLineUsageError);
        cl.setExecutionExceptionHandler(DfrMain::oneLineFailure);
        cl.getHelpSectionMap().put(UsageMessageSpec.SECTION_KEY_COMMAND_LIST, DfrMain::commandList);
        // every command's help lists -V: it answers with dfr's version, not an empty line
        giveVersion(cl, cl.getCommandSpec().version());
        return cl;
    }

    /** Every command below {@code cl}, at any depth ({@code dfr power cap}), answers -V with dfr's version. */
    private static void giveVersion(CommandLine cl, String[] version) {
        for (CommandLine sub : cl.getSubcommands().values()) {
            sub.getCommandSpec().version(version);
            giveVersion(sub, version);
        }
    }

    /**
     * The commands with the first sentence of each one's description: picocli's own list shows the first
     * line of the description array, which for most commands ends mid-sentence ("... and writes").
     */
    static String commandList(CommandLine.Help help) {
        Map<CommandLine, String> names = new LinkedHashMap<>();
        help.commandSpec().subcommands().values().forEach(sub -> names.computeIfAbsent(sub,
                c -> String.join(", ", c.getCommandSpec().names())));
        if (names.isEmpty()) {
            return "";
        }
        int nameWidth = 2 + names.values().stream().mapToInt(String::length).max().orElse(0) + 2;
        int width = help.commandSpec().usageMessage().width();
        TextTable table = TextTable.forColumns(help.colorScheme(),
                new Column(nameWidth, 2, Column.Overflow.SPAN),
                new Column(Math.max(20, width - nameWidth), 2, Column.Overflow.WRAP));
        names.forEach((sub, name) -> table.addRowValues(name, summary(sub.getCommandSpec().usageMessage())));
        return table.toString();
    }

    /** The header if there is one, else the description's first sentence. */
    static String summary(UsageMessageSpec usage) {
        if (usage.header().length > 0) {
            return usage.header()[0];
        }
        String text = String.join(" ", usage.description()).replaceAll("\\s+", " ").trim();
        Matcher end = SENTENCE_END.matcher(text);
        return end.find() ? text.substring(0, end.start() + 1) : text;
    }

    /**
     * Bad input gets one line: which command, the bad value and what is allowed, and where the help is;
     * exit code 2. No usage dump, no stack trace.
     */
    static int oneLineUsageError(CommandLine.ParameterException e, String[] args) {
        CommandLine cl = e.getCommandLine();
        String command = cl.getCommandSpec().qualifiedName();
        String message = String.valueOf(e.getMessage()).replace(System.lineSeparator(), " ").replace('\n', ' ').trim();
        message = enumChoicesInOurWords(message);
        if (e instanceof CommandLine.UnmatchedArgumentException unmatched) {
            message += elsewhere(cl, unmatched.getUnmatched());
        }
        // a kernel's options are its own: a command's help does not list them (a walk-through, session 43)
        cl.getErr().println(command + ": " + message + (causedBy(e, KernelOptionException.class)
                ? " (dfr kernels lists each kernel's options)" : " (" + command + " --help lists the options)"));
        cl.getErr().flush();
        return 2;
    }

    /**
     * For an option this command does not take, the commands that do: "Unknown options: '--strategy', 'dfr'" left a
     * researcher guessing that bench-recovery always compares both strategies (a walk-through).
     */
    static String elsewhere(CommandLine command, List<String> unmatched) {
        CommandLine root = command;
        while (root.getParent() != null) {
            root = root.getParent();
        }
        List<String> notes = new ArrayList<>();
        for (String arg : unmatched) {
            String option = arg.contains("=") ? arg.substring(0, arg.indexOf('=')) : arg;
            if (!option.startsWith("--")) {
                continue;
            }
            List<String> takers = new ArrayList<>();
            collectTakers(root, option, takers);
            if (!takers.isEmpty()) {
                notes.add(option + " is an option of " + String.join(", ", takers));
            }
        }
        return notes.isEmpty() ? "" : "; " + String.join("; ", notes);
    }

    private static void collectTakers(CommandLine command, String option, List<String> takers) {
        for (CommandLine sub : command.getSubcommands().values()) {
            if (sub.getCommandSpec().findOption(option) != null
                    && !takers.contains(sub.getCommandSpec().qualifiedName())) {
                takers.add(sub.getCommandSpec().qualifiedName());
            }
            collectTakers(sub, option, takers);
        }
    }

    /** Whether {@code type} is in {@code e}'s chain of causes (a command wraps what it caught as the cause). */
    static boolean causedBy(Throwable e, Class<? extends Throwable> type) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (type.isInstance(t)) {
                return true;
            }
        }
        return false;
    }

    private static final Pattern ENUM_CHOICES = Pattern.compile("expected one of \\[([A-Z0-9_, ]+)\\] \\(case-insensitive\\) ");

    /**
     * picocli's words for an enum option's bad value in ours: its values lower case, as the options and the docs write
     * them, and "--mode x is not allowed: allowed are ..." as every other bad value reads.
     */
    static String enumChoicesInOurWords(String message) {
        Matcher m = ENUM_CHOICES.matcher(message);
        String lowered = m.find() ? message.substring(0, m.start()) + "expected one of ["
                + m.group(1).toLowerCase(Locale.ROOT) + "] " + message.substring(m.end()) : message;
        // then in the words of every other bad value: "--mode x is not allowed: allowed are embedded, processes"
        Matcher choice = ENUM_VALUE.matcher(lowered);
        return choice.matches() ? choice.group(1) + " " + choice.group(3) + " is not allowed: allowed are "
                + choice.group(2) + choice.group(4) : lowered;
    }

    /** picocli's words for a value outside an enum option's choices: the option, the choices, the value, the rest. */
    private static final Pattern ENUM_VALUE = Pattern.compile(
            "Invalid value for option '(--[a-z0-9-]+)': expected one of \\[([^\\]]*)\\] but was '([^']*)'(.*)");

    /** Set to 1 to have {@link #oneLineFailure} print the stack trace after its line. */
    static final String STACK_TRACE_VARIABLE = RankProcessMain.STACK_TRACE_VARIABLE;

    /**
     * What nothing else caught (typically a bug in a user's kernel: an exception from its {@code create},
     * {@code packHalo} or {@code options}) gets one line: the command, the exception and where it was thrown,
     * exit code 1. The stack trace follows only with {@value #STACK_TRACE_VARIABLE}=1, and always for a rank
     * process, whose log is read after the fact.
     */
    static int oneLineFailure(Exception e, CommandLine cl, CommandLine.ParseResult parsed) {
        return oneLineFailure(e, cl);
    }

    /**
     * With {@value #STACK_TRACE_VARIABLE}=1, the stack trace of a failed run's cause (a kernel's exception) after
     * its one line; the runtime's own failures have none worth reading.
     */
    static void printStackTraceIfAsked(RunFailedException e, PrintWriter err) {
        if (!"1".equals(System.getenv(STACK_TRACE_VARIABLE))) {
            return;
        }
        Throwable cause = e;
        while (cause instanceof RunFailedException && cause.getCause() != null && cause.getCause() != cause) {
            cause = cause.getCause();
        }
        cause.printStackTrace(err);
        err.flush();
    }

    private static int oneLineFailure(Throwable e, CommandLine cl) {
        String command = cl.getCommandSpec().qualifiedName();
        if (e instanceof KernelContractException) {
            // the message names the kernel and the broken rule; dfr's frame that noticed it says nothing more
            cl.getErr().println(command + ": " + e.getMessage());
            cl.getErr().flush();
            return 1;
        }
        boolean rank = RANK_COMMANDS.contains(cl.getCommandName());
        boolean trace = rank || "1".equals(System.getenv(STACK_TRACE_VARIABLE));
        String what = String.valueOf(e).replace(System.lineSeparator(), " ").replace('\n', ' ').trim();
        cl.getErr().println(command + ": failed: " + what + ThrownAt.of(e)
                + (trace ? "" : " (" + STACK_TRACE_VARIABLE + "=1 prints the stack trace)"));
        if (trace) {
            e.printStackTrace(cl.getErr());
        }
        cl.getErr().flush();
        return 1;
    }

    public static void main(String[] args) {
        StoppedMemberThreads.install();
        Provenance.recordCommandLine(List.of(args));
        if (args.length == 0 || !RANK_COMMANDS.contains(args[0])) {
            restoreLeftoverJournals();
        }
        CommandLine cl = commandLine();
        int code;
        try {
            code = cl.execute(args);
        } catch (Throwable e) {
            // picocli hands the handler Exceptions only: an Error (NoClassDefFoundError from a kernel jar built
            // against another SPI, StackOverflowError) gets the same one line
            CommandLine.ParseResult parsed = cl.getParseResult();
            CommandLine failed = cl;
            while (parsed != null && parsed.subcommand() != null) {
                parsed = parsed.subcommand();
                failed = parsed.commandSpec().commandLine();
            }
            code = oneLineFailure(e, failed);
        }
        System.exit(code);
    }
}
