package org.dfr.runtime.kernel;

/**
 * A kernel broke its contract with dfr (a dependency declaration out of range or falsely symmetric, an option
 * read that it never declared): the kernel's author has to fix it, so a command line reports it as a failure
 * (exit code 1), not as a bad argument of the user's (exit code 2).
 */
public class KernelContractException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    /** @param message what the kernel did, and that it is the kernel's bug */
    public KernelContractException(String message) {
        super(message);
    }

    /** @param message what the kernel did; @param cause what detected it */
    public KernelContractException(String message, Throwable cause) {
        super(message, cause);
    }
}
