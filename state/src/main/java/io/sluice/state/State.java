package io.sluice.state;

import org.apache.spark.api.java.Optional;

/**
 * The state of one key, as {@code mapWithState}'s function sees it while it handles one record of that key
 * (or the key's timeout). Mirrors Spark Streaming's {@code State}: read it with {@link #exists}/{@link #get},
 * change it with {@link #update} or {@link #remove}. A state that {@link #isTimingOut() is timing out} is
 * removed after the call and can be neither updated nor removed.
 *
 * <p>Only valid during the call it was passed to: do not keep it.
 *
 * @param <S> the state type
 */
public interface State<S> {
    /** Whether the key has state. */
    boolean exists();

    /** The state; {@link java.util.NoSuchElementException} when the key has none. */
    S get();

    /** The state if the key has one. */
    default Optional<S> getOption() {
        return exists() ? Optional.ofNullable(get()) : Optional.empty();
    }

    /** Sets the key's state (kept after this batch); not allowed after {@link #remove} or while timing out. */
    void update(S newState);

    /** Removes the key's state after this record; not allowed twice or while timing out. */
    void remove();

    /** Whether this call is the key's timeout: it received no data for longer than the timeout. */
    boolean isTimingOut();
}
