package io.sluice.state.internal;

import io.sluice.state.State;
import java.util.NoSuchElementException;

/** The engine's {@link State}: one mutable slot, re-aimed at each record's key (no allocation per record). */
public final class StateSlot<S> implements State<S> {
    private boolean defined;
    private S state;
    private boolean updated;
    private boolean removed;
    private boolean timingOut;

    /** Aims the slot at a key with ({@code exists}) or without state, before calling the user's function. */
    public void wrap(boolean exists, S value) {
        defined = exists;
        state = exists ? value : null;
        updated = false;
        removed = false;
        timingOut = false;
    }

    /** Aims the slot at a key whose state times out in this batch. */
    public void wrapTimingOut(S value) {
        wrap(true, value);
        timingOut = true;
    }

    @Override
    public boolean exists() {
        return defined;
    }

    @Override
    public S get() {
        if (!defined) {
            throw new NoSuchElementException("this key has no state: check exists() or use getOption() first");
        }
        return state;
    }

    @Override
    public void update(S newState) {
        if (timingOut) {
            throw new IllegalStateException("cannot update the state of a key that is timing out: its state is "
                    + "removed after this call (return the value to emit instead; new data for the key starts "
                    + "a fresh state)");
        }
        if (removed) {
            throw new IllegalStateException("cannot update the state after it has been removed in the same call");
        }
        state = newState;
        defined = true;
        updated = true;
    }

    @Override
    public void remove() {
        if (timingOut) {
            throw new IllegalStateException("cannot remove the state of a key that is timing out: it is removed "
                    + "after this call anyway");
        }
        if (removed) {
            throw new IllegalStateException("cannot remove the state twice in the same call");
        }
        defined = false;
        state = null;
        updated = false;
        removed = true;
    }

    @Override
    public boolean isTimingOut() {
        return timingOut;
    }

    public boolean isUpdated() {
        return updated;
    }

    public boolean isRemoved() {
        return removed;
    }

    @Override
    public String toString() {
        return defined ? "State(" + state + ")" : "State(<none>)";
    }
}
