package io.sluice.dstream.internal.offline;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import io.sluice.dstream.StateChange;
import io.sluice.dstream.StateEntry;
import io.sluice.rdd.Time;
import io.sluice.rdd.internal.KryoRegistrations;

/**
 * Serializers for the records offline state reads hand out (cached, spilled, collected): Kryo's field
 * serializer cannot set a record's final fields, so each is written as its components and rebuilt through its
 * canonical constructor.
 */
public final class OfflineKryoRegistrations implements KryoRegistrations {
    @Override
    public void registerClasses(Kryo kryo) {
        kryo.register(StateEntry.class, new EntrySerializer());
        kryo.register(StateChange.class, new Serializer<StateChange<Object>>(false, true) {
            @Override
            public void write(Kryo k, Output out, StateChange<Object> change) {
                out.writeByte(change.kind().ordinal());
                k.writeObjectOrNull(out, change.before(), StateEntry.class);
                k.writeObjectOrNull(out, change.after(), StateEntry.class);
            }

            @Override
            @SuppressWarnings("unchecked")
            public StateChange<Object> read(Kryo k, Input in, Class<StateChange<Object>> type) {
                StateChange.Kind kind = StateChange.Kind.values()[in.readByte()];
                return new StateChange<>(kind, k.readObjectOrNull(in, StateEntry.class),
                        k.readObjectOrNull(in, StateEntry.class));
            }
        });
    }

    private static final class EntrySerializer extends Serializer<StateEntry<Object>> {
        EntrySerializer() {
            super(false, true);
        }

        @Override
        public void write(Kryo k, Output out, StateEntry<Object> entry) {
            k.writeClassAndObject(out, entry.state());
            out.writeLong(entry.lastUpdate().milliseconds());
        }

        @Override
        public StateEntry<Object> read(Kryo k, Input in, Class<StateEntry<Object>> type) {
            return new StateEntry<>(k.readClassAndObject(in), new Time(in.readLong()));
        }
    }
}
