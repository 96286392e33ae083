package io.sluice.state.internal;

import io.sluice.rdd.KeyGroups;
import io.sluice.state.internal.rocksdb.RocksBackend;
import java.util.stream.Stream;

/** The state backends every state test runs on: {@code @MethodSource("io.sluice.state.internal.Backends#all")}. */
public final class Backends {
    private Backends() {
    }

    public static Stream<StateBackend> all() {
        return Stream.of(HeapBackend.INSTANCE, new RocksBackend(new KeyGroups(KeyGroups.DEFAULT_COUNT)));
    }
}
