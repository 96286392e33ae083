package io.sluice.state.internal;

/**
 * State in the executor's heap: each partition's versions are hash tables, a shared base and a small
 * copy-on-write delta ({@link HeapStateVersion}). The fastest backend, for state that fits in memory.
 */
public final class HeapBackend implements StateBackend {
    private static final long serialVersionUID = 1L;
    public static final HeapBackend INSTANCE = new HeapBackend();

    private HeapBackend() {
    }

    @Override
    public String name() {
        return HEAP;
    }

    @Override
    public <K, S> StateVersion<K, S> empty(long batchTime, boolean timed) {
        return HeapStateVersion.empty(batchTime, timed);
    }

    @Override
    public <K, S> StateLoader<K, S> loader(int expectedSize, boolean timed) {
        return new HeapStateLoader<>(expectedSize, timed);
    }

    @Override
    public <K, S> StateLoader<K, S> copyOf(StateVersion<K, S> version) {
        return version instanceof HeapStateVersion<K, S> heap ? HeapStateLoader.copyOf(heap)
                : StateBackend.super.copyOf(version);
    }

    private Object readResolve() {
        return INSTANCE;
    }

    @Override
    public String toString() {
        return HEAP;
    }
}
