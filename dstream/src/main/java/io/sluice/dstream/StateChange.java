package io.sluice.dstream;

/**
 * How one key's state differs between two checkpointed batches ({@link CheckpointState#changes}): added (only
 * {@code after}), removed (only {@code before}), or updated (both, with states that are not {@code equals}).
 *
 * @param <S> state type
 */
public record StateChange<S>(Kind kind, StateEntry<S> before, StateEntry<S> after) implements java.io.Serializable {
    /** What happened to the key between the two batches. */
    public enum Kind {
        ADDED, UPDATED, REMOVED
    }

    public StateChange {
        boolean consistent = switch (kind) {
            case ADDED -> before == null && after != null;
            case REMOVED -> before != null && after == null;
            case UPDATED -> before != null && after != null;
        };
        if (!consistent) {
            throw new IllegalArgumentException(kind + " with before " + before + " and after " + after);
        }
    }

    public static <S> StateChange<S> added(StateEntry<S> after) {
        return new StateChange<>(Kind.ADDED, null, after);
    }

    public static <S> StateChange<S> removed(StateEntry<S> before) {
        return new StateChange<>(Kind.REMOVED, before, null);
    }

    public static <S> StateChange<S> updated(StateEntry<S> before, StateEntry<S> after) {
        return new StateChange<>(Kind.UPDATED, before, after);
    }
}
