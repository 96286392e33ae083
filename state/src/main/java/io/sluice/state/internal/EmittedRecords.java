package io.sluice.state.internal;

import java.util.AbstractList;
import java.util.Arrays;
import java.util.RandomAccess;

/**
 * The records a mapWithState batch emitted, kept in the state RDD's cached record for as long as the batch is
 * remembered. While every record is a {@link Long} (a running count, the common case) they are stored unboxed:
 * 8 bytes a record instead of a 16-byte object and a reference, and nothing for the collector to trace. The
 * first record of another type (or null) boxes the list once.
 *
 * <p>Records are kept in chunks of {@value #CHUNK}: the first grows by doubling up to that size, later ones are
 * allocated whole, so growing copies at most the first chunk (a partition of W2 emits 100,000 records a batch:
 * one array doubling from 16 and trimmed at the end allocated 2.9 MB and copied 1.8 MB to keep 0.8 MB).
 */
public final class EmittedRecords<M> extends AbstractList<M> implements RandomAccess {
    private static final int SHIFT = 12;
    static final int CHUNK = 1 << SHIFT;
    private static final int MASK = CHUNK - 1;

    private long[][] longs = {new long[16]};
    private Object[][] objects;
    private int size;

    @Override
    public boolean add(M record) {
        int chunk = size >>> SHIFT;
        int at = size & MASK;
        if (objects == null) {
            if (record instanceof Long l) {
                if (chunk == longs.length || longs[chunk] == null || at == longs[chunk].length) {
                    longs = grown(longs, chunk, at);
                }
                longs[chunk][at] = l;
                size++;
                return true;
            }
            box();
        }
        if (chunk == objects.length || objects[chunk] == null || at == objects[chunk].length) {
            objects = grown(objects, chunk, at);
        }
        objects[chunk][at] = record;
        size++;
        return true;
    }

    /** Room for index {@code at} of chunk {@code chunk}: a chunk doubles up to {@value #CHUNK}, a new one is whole. */
    private static long[][] grown(long[][] chunks, int chunk, int at) {
        long[][] c = chunk < chunks.length ? chunks : Arrays.copyOf(chunks, 2 * chunks.length);
        c[chunk] = c[chunk] == null ? new long[CHUNK] : Arrays.copyOf(c[chunk], Math.min(CHUNK, Math.max(16, 2 * at)));
        return c;
    }

    private static Object[][] grown(Object[][] chunks, int chunk, int at) {
        Object[][] c = chunk < chunks.length ? chunks : Arrays.copyOf(chunks, 2 * chunks.length);
        c[chunk] = c[chunk] == null ? new Object[CHUNK]
                : Arrays.copyOf(c[chunk], Math.min(CHUNK, Math.max(16, 2 * at)));
        return c;
    }

    private void box() {
        Object[][] boxed = new Object[longs.length][];
        for (int c = 0; c < longs.length && longs[c] != null; c++) {
            long[] from = longs[c];
            Object[] to = new Object[from.length];
            int n = Math.min(from.length, size - (c << SHIFT));
            for (int i = 0; i < n; i++) {
                to[i] = from[i];
            }
            boxed[c] = to;
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
        return objects == null ? (M) Long.valueOf(longs[index >>> SHIFT][index & MASK])
                : (M) objects[index >>> SHIFT][index & MASK];
    }

    @Override
    public int size() {
        return size;
    }

    /** Drops the unused tail of the last chunk, and the unused chunk slots, once the batch is complete. */
    public EmittedRecords<M> trimmed() {
        int chunks = Math.max(1, (size + MASK) >>> SHIFT);
        int last = chunks - 1;
        int inLast = size - (last << SHIFT);
        if (objects == null) {
            longs = Arrays.copyOf(longs, chunks);
            longs[last] = Arrays.copyOf(longs[last], inLast);
        } else {
            objects = Arrays.copyOf(objects, chunks);
            objects[last] = Arrays.copyOf(objects[last], inLast);
        }
        return this;
    }
}
