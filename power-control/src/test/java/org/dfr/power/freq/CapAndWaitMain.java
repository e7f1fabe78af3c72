package org.dfr.power.freq;

import java.nio.file.Path;
import org.dfr.power.sysfs.Sysfs;
import org.dfr.power.sysfs.SysfsRoot;

/**
 * Child process of {@link CrashRestoreIT}: caps the fake tree at {@code args[0]} with the journal at
 * {@code args[1]}, optionally installs the shutdown hook ({@code args[2] == "hook"}), prints
 * {@code CAPPED} and waits to be killed.
 */
public final class CapAndWaitMain {

    private CapAndWaitMain() {
    }

    public static void main(String[] args) throws Exception {
        FrequencyController controller = FrequencyControllers.probe(Sysfs.at(SysfsRoot.of(Path.of(args[0]))),
                new RestoreJournal(Path.of(args[1])));
        if (args.length > 2 && args[2].equals("hook")) {
            ShutdownRestoreHook.install(controller);
        }
        CapOutcome outcome = controller.capToMinimum();
        System.out.println(outcome.applied() ? "CAPPED" : "NOT CAPPED: " + outcome.message());
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }
}
