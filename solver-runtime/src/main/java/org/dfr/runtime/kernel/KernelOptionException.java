package org.dfr.runtime.kernel;

/**
 * A kernel option on the command line (or in a configuration) that the kernel does not declare, or a value it does not
 * allow: the user's mistake, not the kernel's. A type of its own so that every command can point at the list of each
 * kernel's options ({@code dfr kernels}) rather than at its own help, which does not hold them.
 */
public final class KernelOptionException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    KernelOptionException(String message) {
        super(message);
    }
}
