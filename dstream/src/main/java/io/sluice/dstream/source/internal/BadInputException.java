package io.sluice.dstream.source.internal;

/** A record a source could not read (malformed, not UTF-8, too long, cut off); the message says which and why. */
public final class BadInputException extends RuntimeException {
    public BadInputException(String message) {
        super(message);
    }
}
