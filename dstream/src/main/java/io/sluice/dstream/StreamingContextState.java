package io.sluice.dstream;

/** The life of a {@link StreamingContext}: built, running, done (it cannot be restarted). */
public enum StreamingContextState {
    INITIALIZED, ACTIVE, STOPPED
}
