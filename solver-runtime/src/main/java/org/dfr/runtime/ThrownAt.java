package org.dfr.runtime;

/**
 * Where an exception was thrown, for one-line messages: the first stack frame outside the JDK, which for a
 * kernel's bug is the kernel's own line (the JDK's frames, such as {@code System.arraycopy}, say only how).
 */
public final class ThrownAt {

    private ThrownAt() {
    }

    /** {@code " at FRAME"}: the first frame outside the JDK, else the top one; "" without frames. */
    public static String of(Throwable e) {
        StackTraceElement[] frames = e.getStackTrace();
        for (StackTraceElement f : frames) {
            String c = f.getClassName();
            if (!c.startsWith("java.") && !c.startsWith("jdk.") && !c.startsWith("sun.")) {
                return " at " + f;
            }
        }
        return frames.length == 0 ? "" : " at " + frames[0];
    }
}
