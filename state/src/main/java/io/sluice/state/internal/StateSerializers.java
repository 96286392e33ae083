package io.sluice.state.internal;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import io.sluice.rdd.KeyGroupPartitioner;
import io.sluice.rdd.KeyGroups;
import io.sluice.state.internal.rocksdb.RocksBackend;
import io.sluice.rdd.internal.KryoRegistrations;
import java.util.List;

/**
 * Kryo serializers for the records of state RDDs, registered with Spark's Kryo (through {@link
 * KryoRegistrations}) for when Spark writes them: reliable RDD checkpoints, blocks dropped to disk, remote
 * block reads. A version is written as its backend's name and its live entries (key, state, last update), and
 * read back into a fresh version of that backend (one compacted table; a new local RocksDB): tables, deltas,
 * removal logs and databases are where the data is kept, not the data.
 *
 * <p>Reference tracking is switched off while entries are written (and read): a state holds no shared or
 * cyclic references worth tracking, and tracking hundreds of thousands of keys would grow the Kryo instance's
 * identity map, which Kryo then clears after every later object it writes (a pooled instance also serves
 * shuffles).
 */
public final class StateSerializers implements KryoRegistrations {
    @Override
    public void registerClasses(Kryo kryo) {
        kryo.register(HeapStateVersion.class, new VersionSerializer());
        kryo.register(io.sluice.state.internal.rocksdb.RocksStateVersion.class, new VersionSerializer());
        kryo.register(MapWithStateBatch.class, new BatchSerializer());
        // Spark writes a checkpointed RDD's partitioner with Kryo; Kryo 4 cannot handle records by field, and
        // Java serialization would let bytes name any class, so both are written as their numbers
        kryo.register(KeyGroupPartitioner.class, new PartitionerSerializer());
        kryo.register(KeyGroups.class, new KeyGroupsSerializer());
    }

    static void writeVersion(Kryo kryo, Output out, StateVersion<?, ?> v) {
        StateBackend backend = v.backend();
        out.writeString(backend.name());
        out.writeInt(backend instanceof RocksBackend r ? r.groups().count() : 0, true);
        out.writeLong(v.batchTime());
        out.writeBoolean(v.timed());
        // the removals are not written: the copy knows them only from its own batch on, unless there were none
        out.writeBoolean(v instanceof HeapStateVersion<?, ?> h && h.removals == null
                && h.removalsKnownSince == Long.MIN_VALUE);
        out.writeInt(v.size(), true);
        int[] written = {0};
        boolean references = kryo.setReferences(false);
        try {
            v.forEach((key, state, lastUpdate) -> {
                kryo.writeClassAndObject(out, key);
                kryo.writeClassAndObject(out, state);
                out.writeLong(lastUpdate);
                written[0]++;
            });
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        } finally {
            kryo.setReferences(references);
        }
        if (written[0] != v.size()) {
            throw new IllegalStateException("state version claims " + v.size() + " keys but holds " + written[0]);
        }
    }

    static <K, S> StateVersion<K, S> readVersion(Kryo kryo, Input in) {
        String name = in.readString();
        int groups = in.readInt(true);
        StateBackend backend = StateBackend.named(name, groups == 0 ? null : new KeyGroups(groups));
        long batchTime = in.readLong();
        boolean timed = in.readBoolean();
        boolean neverRemoved = in.readBoolean();
        int size = in.readInt(true);
        StateLoader<K, S> loader = backend.loader(size, timed);
        boolean references = kryo.setReferences(false);
        try {
            for (int i = 0; i < size; i++) {
                @SuppressWarnings("unchecked")
                K key = (K) kryo.readClassAndObject(in);
                @SuppressWarnings("unchecked")
                S state = (S) kryo.readClassAndObject(in);
                loader.put(key, state, in.readLong());
            }
        } finally {
            kryo.setReferences(references);
        }
        return loader.build(batchTime, neverRemoved ? Long.MIN_VALUE : batchTime);
    }

    @SuppressWarnings("rawtypes")
    static final class VersionSerializer extends Serializer<StateVersion> {
        @Override
        public void write(Kryo kryo, Output output, StateVersion version) {
            writeVersion(kryo, output, version);
        }

        @Override
        public StateVersion read(Kryo kryo, Input input, Class<StateVersion> type) {
            return readVersion(kryo, input);
        }
    }

    @SuppressWarnings("rawtypes")
    static final class BatchSerializer extends Serializer<MapWithStateBatch> {
        @Override
        public void write(Kryo kryo, Output output, MapWithStateBatch batch) {
            writeVersion(kryo, output, batch.state());
            List<?> mapped = batch.mapped();
            output.writeInt(mapped.size(), true);
            boolean references = kryo.setReferences(false);
            try {
                for (Object m : mapped) {
                    kryo.writeClassAndObject(output, m);
                }
            } finally {
                kryo.setReferences(references);
            }
        }

        @Override
        public MapWithStateBatch read(Kryo kryo, Input input, Class<MapWithStateBatch> type) {
            StateVersion<Object, Object> version = readVersion(kryo, input);
            int n = input.readInt(true);
            EmittedRecords<Object> mapped = new EmittedRecords<>();
            boolean references = kryo.setReferences(false);
            try {
                for (int i = 0; i < n; i++) {
                    mapped.add(kryo.readClassAndObject(input));
                }
            } finally {
                kryo.setReferences(references);
            }
            return new MapWithStateBatch<>(version, mapped.trimmed());
        }
    }

    static final class PartitionerSerializer extends Serializer<KeyGroupPartitioner> {
        @Override
        public void write(Kryo kryo, Output output, KeyGroupPartitioner partitioner) {
            output.writeInt(partitioner.keyGroups().count(), true);
            output.writeInt(partitioner.numPartitions(), true);
        }

        @Override
        public KeyGroupPartitioner read(Kryo kryo, Input input, Class<KeyGroupPartitioner> type) {
            KeyGroups groups = new KeyGroups(input.readInt(true));
            return new KeyGroupPartitioner(groups, input.readInt(true));
        }
    }

    static final class KeyGroupsSerializer extends Serializer<KeyGroups> {
        @Override
        public void write(Kryo kryo, Output output, KeyGroups groups) {
            output.writeInt(groups.count(), true);
        }

        @Override
        public KeyGroups read(Kryo kryo, Input input, Class<KeyGroups> type) {
            return new KeyGroups(input.readInt(true));
        }
    }
}
