package io.sluice.bench.flink;

import java.util.Locale;

/** Flink's two keyed state backends, by the value of its {@code state.backend.type} setting. */
enum StateBackend {
    /** HashMapStateBackend: state as objects on the heap. */
    HEAP("hashmap"),
    /** EmbeddedRocksDBStateBackend: state serialized in RocksDB on local disk, read and written key by key. */
    ROCKSDB("rocksdb");

    private final String settingValue;

    StateBackend(String settingValue) {
        this.settingValue = settingValue;
    }

    String settingValue() {
        return settingValue;
    }

    static StateBackend parse(String name) {
        for (StateBackend b : values()) {
            if (b.name().equalsIgnoreCase(name) || b.settingValue.equalsIgnoreCase(name)) {
                return b;
            }
        }
        throw new IllegalArgumentException("no Flink state backend '" + name + "': heap or rocksdb");
    }

    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }
}
