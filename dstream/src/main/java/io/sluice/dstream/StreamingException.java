package io.sluice.dstream;

/** A streaming application failed; the message names the operator and batch where that is known. */
public final class StreamingException extends RuntimeException {
    public StreamingException(String message, Throwable cause) {
        super(message, cause);
    }
}
