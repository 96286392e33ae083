package io.sluice.state.internal;

import java.util.AbstractList;
import java.util.Arrays;
import java.util.RandomAccess;

/**
 * The records a mapWithState batch emitted, kept in the state RDD's cached record for as long as the batch is
 * remembered. While every record is a {@link Long} (a running count, the common case) they are stored unboxed:
 * 8 bytes a record instead of a 16-byte object and a reference, and nothing for the collector to trace. The
 * first record of another type (or null) boxes the list once.
 */
public final class EmittedRecords<M> extends AbstractList<M> implements RandomAccess {
    private long[] longs = new long[16];
    private Object[] objects;
    private int size;

    @Override
    public boolean add(M record) {
        if (objects == null) {
            if (record instanceof Long l) {
                if (size == longs.length) {
                    longs = Arrays.copyOf(longs, size * 2);
                }
                longs[size++] = l;
                return true;
            }
            box();
        }
        if (size == objects.length) {
            objects = Arrays.copyOf(objects, size * 2);
        }
        objects[size++] = record;
        return true;
    }

    private void box() {
        Object[] boxed = new Object[Math.max(16, longs.length)];
        for (int i = 0; i < size; i++) {
            boxed[i] = longs[i];
        }
        objects = boxed;
        longs = null;
    }

    @Override
    @SuppressWarnings("unchecked")
    public M get(int index) {
        if (index < 0 || index >= size) {
            throw new IndexOutOfBoundsException("index " + index + ", size " + size);
        }
        return objects == null ? (M) Long.valueOf(longs[index]) : (M) objects[index];
    }

    @Override
    public int size() {
        return size;
    }

    /** Drops the unused tail of the backing array, once the batch is complete. */
    public EmittedRecords<M> trimmed() {
        if (objects == null) {
            longs = Arrays.copyOf(longs, size);
        } else {
            objects = Arrays.copyOf(objects, size);
        }
        return this;
    }
}
