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
        return of(e.getStackTrace());
    }

    /** {@code " at FRAME"} of a stack (a thread's, say): the first frame outside the JDK, else the top one. */
    public static String of(StackTraceElement[] frames) {
        for (StackTraceElement f : frames) {
            String c = f.getClassName();
            if (!c.startsWith("java.") && !c.startsWith("jdk.") && !c.startsWith("sun.")) {
                return " at " + frame(f);
            }
        }
        return frames.length == 0 ? "" : " at " + frame(frames[0]);
    }

    /** {@code Class.method(File.java:42)}, without the class loader's and module's names ("app//"). */
    private static String frame(StackTraceElement f) {
        String where = f.getFileName() == null ? "Unknown Source"
                : f.getLineNumber() >= 0 ? f.getFileName() + ":" + f.getLineNumber() : f.getFileName();
        return f.getClassName() + "." + f.getMethodName() + "(" + where + ")";
    }
}
