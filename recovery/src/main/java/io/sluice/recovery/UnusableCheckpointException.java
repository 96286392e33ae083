package io.sluice.recovery;

import java.io.IOException;

/** A checkpoint file that must not be used: damaged, truncated, incomplete, or of a newer format. */
public final class UnusableCheckpointException extends IOException {
    private final String file;
    private final String reason;

    public UnusableCheckpointException(String file, String reason) {
        super("checkpoint " + file + " is unusable: " + reason);
        this.file = file;
        this.reason = reason;
    }

    public String file() {
        return file;
    }

    public String reason() {
        return reason;
    }
}
