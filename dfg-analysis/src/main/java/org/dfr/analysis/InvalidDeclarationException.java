package org.dfr.analysis;

/**
 * A dependency declaration that breaks its contract: an input out of range, inputs unsorted or repeated, a
 * symmetry claimed but not kept. Whoever wrote the declaration (a kernel) is at fault, not whoever chose the
 * partition count, which is why it is a type of its own: a command line reports it as the kernel's bug rather
 * than as a bad argument. It stays an {@link IllegalArgumentException} for callers of the analysis.
 */
public class InvalidDeclarationException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    /** @param message what of the contract is broken, naming the partitions */
    public InvalidDeclarationException(String message) {
        super(message);
    }
}
