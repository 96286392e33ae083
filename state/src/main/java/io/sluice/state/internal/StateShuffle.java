package io.sluice.state.internal;

import io.sluice.rdd.internal.SharedKryoSerializer;
import org.apache.spark.serializer.Serializer;

/**
 * The serializer of the one shuffle of a stateful batch (moving its records to the state's partitions, when
 * tasks run in other processes; see {@code io.sluice.rdd.internal.Exchange}): when the context uses Kryo, a Kryo that
 * does not track references. Reference tracking costs a map insert per object written and a clear of that map
 * after every record; keys and values bound for state are plain values (see the state engine's decision
 * record: they must not contain reference cycles).
 */
public final class StateShuffle {
    private StateShuffle() {
    }

    /** The serializer for state shuffles of this context: Kryo without reference tracking, or null for the default. */
    public static Serializer serializer() {
        return SharedKryoSerializer.untracked();
    }
}
