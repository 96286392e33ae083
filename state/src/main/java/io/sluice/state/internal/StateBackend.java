package io.sluice.state.internal;

import io.sluice.state.internal.rocksdb.RocksBackend;
import io.sluice.rdd.KeyGroups;
import java.io.Serializable;

/**
 * Where a stateful operator's state versions live: {@link HeapBackend} (hash tables in the executor's heap, the
 * default) or {@link RocksBackend} (RocksDB on the executor's local disk, for state larger than memory). A
 * backend makes the first version of a partition (empty, or loaded from entries); every later version is made
 * from the one before by {@link StateVersion#writer}, so both backends share every other piece of the state's
 * life: transitions, checkpoint files, moves between partitions, restores.
 */
public interface StateBackend extends Serializable {
    /** The setting that chooses the backend of every stateful operator that does not choose its own. */
    String SETTING = "sluice.state.backend";
    String HEAP = "heap";
    String ROCKSDB = "rocksdb";

    /** {@value #HEAP} or {@value #ROCKSDB}: what the setting and {@code StateSpec.backend} call it. */
    String name();

    /** No keys, before the first batch at {@code batchTime}. */
    <K, S> StateVersion<K, S> empty(long batchTime, boolean timed);

    /** A loader of a version from whole entries, sized for about {@code expectedSize} of them. */
    <K, S> StateLoader<K, S> loader(int expectedSize, boolean timed);

    /** A loader already holding every live entry of {@code version}, to apply changes to. */
    default <K, S> StateLoader<K, S> copyOf(StateVersion<K, S> version) {
        StateLoader<K, S> loader = loader(version.size(), version.timed());
        loader.putEntriesOf(version, hashCode -> true);
        return loader;
    }

    /**
     * The backend a setting or a spec names, for state split in {@code groups} key groups; fails, listing the
     * choices, for any other name.
     */
    static StateBackend named(String name, KeyGroups groups) {
        return switch (checkName(name)) {
            case HEAP -> HeapBackend.INSTANCE;
            default -> new RocksBackend(groups);
        };
    }

    /** {@code name} as the backend's own name; fails, listing the choices, if it names no backend. */
    static String checkName(String name) {
        String n = name == null ? "" : name.trim().toLowerCase(java.util.Locale.ROOT);
        if (!n.equals(HEAP) && !n.equals(ROCKSDB)) {
            throw new IllegalArgumentException("unknown state backend '" + name + "': choose " + HEAP + " or "
                    + ROCKSDB + " (" + SETTING + ", StateSpec.backend or updateStateByKey's backend)");
        }
        return n;
    }
}
