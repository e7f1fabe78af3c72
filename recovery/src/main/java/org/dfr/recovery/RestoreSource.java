package org.dfr.recovery;

/**
 * Where a recovery reads the checkpoint it restores. The in-memory copies, normally; when every copy of a lost
 * partition died with its owner (more deaths at once than the checkpoint has backups), the coordinator falls back to
 * an older state that can still be read: the newest complete file level at or before the checkpoint, else where the
 * run started. The whole cone of the older checkpoint then recomputes, and the result is still that of a run without
 * failures.
 */
public enum RestoreSource {
    /** The in-memory checkpoint copies (where the run started: its copy, or rebuilt as the run built it). */
    COPIES("copies"),
    /** The file level under {@code --checkpoint-dir}: every copy of the committed checkpoint was lost. */
    FILE_LEVEL("file-level"),
    /**
     * Where the run started (the kernel's initial state, or the file it restarted from), rebuilt: every copy of the
     * committed checkpoint was lost and no file level holds a complete checkpoint.
     */
    START("start");

    private final String label;

    RestoreSource(String label) {
        this.label = label;
    }

    /** The name in reports. */
    public String label() {
        return label;
    }
}
