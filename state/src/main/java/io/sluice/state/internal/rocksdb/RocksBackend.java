package io.sluice.state.internal.rocksdb;

import io.sluice.rdd.KeyGroups;
import io.sluice.state.internal.StateBackend;
import io.sluice.state.internal.StateLoader;
import io.sluice.state.internal.StateVersion;

/**
 * State in RocksDB on the executors' local disks, for state larger than memory: each state partition is a
 * {@link RocksStore} where it runs, a version is a RocksDB snapshot of it, and a batch reads its keys with one
 * multi-get and writes its changes with one write batch ({@link RocksStateWriter}). Keys are stored by key group
 * ({@code groups}), so that a key group is one contiguous range.
 */
public record RocksBackend(KeyGroups groups) implements StateBackend {
    private static final long serialVersionUID = 1L;

    @Override
    public String name() {
        return ROCKSDB;
    }

    @Override
    public <K, S> StateVersion<K, S> empty(long batchTime, boolean timed) {
        return RocksStateVersion.empty(this, batchTime, timed);
    }

    @Override
    public <K, S> StateLoader<K, S> loader(int expectedSize, boolean timed) {
        return new RocksStateLoader<>(this, timed);
    }

    /** Onto a version of this backend: its changes go into its store (or a copy), not into a new one. */
    @Override
    public <K, S> StateLoader<K, S> copyOf(StateVersion<K, S> version) {
        if (version instanceof RocksStateVersion<K, S> rocks && rocks.rocksBackend().equals(this)) {
            return RocksStateLoader.onto(rocks);
        }
        return StateBackend.super.copyOf(version);
    }

    @Override
    public String toString() {
        return ROCKSDB;
    }
}
