package org.dfr.recovery;

import java.util.Comparator;
import java.util.Map;

/** The stacks of every thread of this JVM as text, for the log of a protocol step that waited too long. */
final class ThreadStacks {

    private ThreadStacks() {
    }

    /** One block per thread, named and with its state, sorted by name; every frame (not the JMX dump's eight). */
    static String ofAll() {
        StringBuilder out = new StringBuilder();
        Thread.getAllStackTraces().entrySet().stream()
                .sorted(Comparator.comparing((Map.Entry<Thread, StackTraceElement[]> e) -> e.getKey().getName()))
                .forEach(e -> {
                    out.append(System.lineSeparator()).append('"').append(e.getKey().getName()).append("\" ")
                            .append(e.getKey().getState());
                    for (StackTraceElement frame : e.getValue()) {
                        out.append(System.lineSeparator()).append("    at ").append(frame);
                    }
                });
        return out.toString();
    }
}
