package org.dfr.cli.options;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * Where to start the ranks of a run over ssh ({@code dfr run --hosts}): the hosts, the ssh client, the java
 * command on the hosts, and the directory every host sees under the same path.
 */
public final class SshOptions {

    /** The ssh client by default: never ask for a password (a run cannot answer it). */
    public static final String DEFAULT_SSH_COMMAND = "ssh -o BatchMode=yes";

    @Option(names = "--hosts", paramLabel = "HOST[,HOST...]", converter = HostListConverter.class,
            description = "Start the ranks on these hosts over ssh (processes mode), host 0 first; each host's ranks"
                    + " bind its name's address. The dfr jar and --shared-dir must have the same path on every host"
                    + " (docs/cluster.md).")
    HostList hosts;

    @Option(names = "--ssh-command", paramLabel = "CMD",
            description = "The ssh client and its options (split at spaces); the host and the rank's command are"
                    + " appended. Default: " + DEFAULT_SSH_COMMAND + ".")
    String sshCommand;

    @Option(names = "--remote-java", paramLabel = "CMD", description = "The java command on the hosts. Default: java.")
    String remoteJava;

    @Option(names = "--shared-dir", paramLabel = "DIR",
            description = "With --hosts: where the run's configuration, the ranks' logs and the report go; the same"
                    + " path on every host (a shared file system). Default: dfr-ssh/<cluster name> under the current directory.")
    Path sharedDirectory;

    /** @return whether {@code --hosts} was given */
    public boolean given() {
        return hosts != null;
    }

    /** @return the hosts, host 0 first, or null without {@code --hosts} */
    public HostList hosts() {
        return hosts;
    }

    /** @return the ssh client and its options, split at white space */
    public List<String> sshCommand() {
        String command = sshCommand != null ? sshCommand : DEFAULT_SSH_COMMAND;
        return Arrays.stream(command.trim().split("\\s+")).filter(w -> !w.isEmpty()).toList();
    }

    /** @return the java command on the hosts */
    public String remoteJava() {
        return remoteJava != null ? remoteJava : "java";
    }

    /**
     * The first of {@code --ssh-command}, {@code --remote-java} and {@code --shared-dir} given without
     * {@code --hosts} (where nothing is started over ssh, so it would be silently ignored), or null.
     */
    public String givenWithoutHosts() {
        if (given()) {
            return null;
        }
        return sshCommand != null ? "--ssh-command" : remoteJava != null ? "--remote-java"
                : sharedDirectory != null ? "--shared-dir" : null;
    }

    /** @return the shared directory, or the default for a cluster name */
    public Path sharedDirectory(String clusterName) {
        return sharedDirectory != null ? sharedDirectory : Path.of("dfr-ssh", clusterName);
    }
}
