package io.sluice.state.internal;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.KryoException;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import io.sluice.rdd.internal.KryoRegistrations;
import io.sluice.rdd.internal.FileKryo;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.function.Consumer;

/**
 * The seam between state and checkpoints: encodes one state partition as a full snapshot, or as the delta of
 * what changed after an earlier batch, and rebuilds a partition from a snapshot followed by deltas. The
 * recovery layer stores the bytes (atomically, with checksums); this class only says what they are.
 *
 * <p>Format (big-endian, via Kryo's Output): magic "SLST", format version, kind (1 snapshot, 2 delta), batch
 * time, base batch (deltas: the batch the delta applies to), timed flag, entry count, then per entry: a kind
 * byte (0 put, 1 remove), the key, and for puts the state and the last update time (which is what timeouts
 * are computed from after a restore).
 *
 * <p>Keys and states are written by a Kryo that only knows registered classes ({@code
 * setRegistrationRequired(true)}): standard value types, Scala's Tuple2 and the application's {@link
 * KryoRegistrations}. A file names classes by registration id; a class name in a (crafted) file resolves only
 * to a registered class ({@link FileKryo}), so no class is ever loaded or initialised because a
 * checkpoint file names it; a file using a class the application does not register fails to decode, with a
 * message naming the file and the id or class. The application must register its own key and state classes in the same order on
 * every start (registration ids are positional).
 *
 * <p>Not thread-safe (Kryo is not): use one codec per thread.
 */
public final class StateCodec {
    public static final int MAGIC = 0x534C5354;
    public static final int FORMAT_VERSION = 1;
    private static final byte SNAPSHOT = 1;
    private static final byte DELTA = 2;
    private static final byte PUT = 0;
    private static final byte REMOVE = 1;

    private final Kryo kryo;

    /** A codec knowing the standard types and every {@link KryoRegistrations} on the class path. */
    public StateCodec() {
        this(kryo -> {
            for (KryoRegistrations r : ServiceLoader.load(KryoRegistrations.class, StateCodec.class.getClassLoader())) {
                r.registerClasses(kryo);
            }
        });
    }

    /** A codec knowing the standard types and what {@code registrations} registers. */
    public StateCodec(Consumer<Kryo> registrations) {
        kryo = FileKryo.newKryo();
        kryo.setReferences(false);
        for (Class<?> c : List.of(Boolean.class, Byte.class, Character.class, Short.class, Integer.class, Long.class,
                Float.class, Double.class, String.class, byte[].class, char[].class, short[].class, int[].class,
                long[].class, float[].class, double[].class, boolean[].class, String[].class, Object[].class,
                java.math.BigInteger.class, java.math.BigDecimal.class, java.util.ArrayList.class,
                java.util.HashMap.class, java.util.HashSet.class, java.util.LinkedList.class,
                java.util.TreeMap.class, scala.Tuple2.class, scala.Tuple3.class)) {
            kryo.register(c);
        }
        registrations.accept(kryo);
        FileKryo.restrict(kryo);
    }

    /** Writes every live entry of {@code state}. */
    public void writeSnapshot(StateVersion<?, ?> state, OutputStream stream) throws IOException {
        Output out = new Output(stream, 1 << 16);
        header(out, SNAPSHOT, state.batchTime(), Long.MIN_VALUE, state.timed(), state.size());
        try {
            state.forEach((key, value, lastUpdate) -> put(out, key, value, lastUpdate));
        } catch (IOException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IOException(e);
        }
        out.flush();
    }

    /** Whether {@link #writeDelta} can describe the changes after batch {@code since}. */
    public boolean canWriteDelta(StateVersion<?, ?> state, long since) {
        return state.hasChangesSince(since);
    }

    /**
     * Writes what changed after batch {@code since} (removed keys, then updated entries); applied to the state
     * of {@code since} it gives {@code state}. Check {@link #canWriteDelta} first: after many removals the
     * oldest are forgotten, and a snapshot must be written instead.
     */
    public <K, S> void writeDelta(StateVersion<K, S> state, long since, OutputStream stream) throws IOException {
        int[] count = {0};
        Output entries = new Output(1 << 12, -1); // one pass: the entries first, then the header with their count
        try {
            state.forEachChangeSince(since, new StateVersion.ChangeVisitor<>() {
                @Override
                public void removed(K key, long removedAt) {
                    entries.writeByte(REMOVE);
                    kryo.writeClassAndObject(entries, key);
                    count[0]++;
                }

                @Override
                public void updated(K key, S value, long lastUpdate) {
                    put(entries, key, value, lastUpdate);
                    count[0]++;
                }
            });
        } catch (IOException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IOException(e);
        }
        Output out = new Output(stream, 1 << 16);
        header(out, DELTA, state.batchTime(), since, state.timed(), count[0]);
        out.writeBytes(entries.getBuffer(), 0, entries.position());
        out.flush();
    }

    private void header(Output out, byte kind, long batchTime, long base, boolean timed, int entries) {
        out.writeInt(MAGIC);
        out.writeInt(FORMAT_VERSION);
        out.writeByte(kind);
        out.writeLong(batchTime);
        out.writeLong(base);
        out.writeBoolean(timed);
        out.writeInt(entries);
    }

    private void put(Output out, Object key, Object value, long lastUpdate) {
        out.writeByte(PUT);
        kryo.writeClassAndObject(out, key);
        kryo.writeClassAndObject(out, value);
        out.writeLong(lastUpdate);
    }

    /** Reads a snapshot {@link #writeSnapshot} wrote. */
    public <K, S> StateVersion<K, S> readSnapshot(InputStream stream) throws IOException {
        return restore(HeapBackend.INSTANCE, stream, List.of(), List.of("snapshot"));
    }

    /** Applies a delta {@link #writeDelta} wrote to the state of the batch it was taken since. */
    public <K, S> StateVersion<K, S> applyDelta(StateVersion<K, S> state, InputStream stream) throws IOException {
        StateLoader<K, S> loader = state.backend().copyOf(state);
        long time = applyDelta(loader, state.batchTime(), stream, "delta");
        return loader.build(time, time);
    }

    /**
     * A partition's state from its snapshot followed by its deltas, oldest first: every file is applied to one
     * table, so a chain costs its entries, not a copy of the state per delta. The state is loaded into
     * {@code backend}, whichever backend wrote the files: the entries mean the same on both. {@code files} names
     * the snapshot and then each delta in errors.
     */
    public <K, S> StateVersion<K, S> restore(StateBackend backend, InputStream snapshot, List<InputStream> deltas,
            List<String> files) throws IOException {
        if (files.size() != deltas.size() + 1) {
            throw new IllegalArgumentException("one name per file: " + files);
        }
        Input in = new Input(snapshot, 1 << 16);
        Header h = readHeader(in, SNAPSHOT, files.get(0));
        StateLoader<K, S> loader = backend.loader(h.entries(), h.timed());
        readEntries(in, h, new Sink<K, S>() {
            @Override
            public void put(K key, S value, long lastUpdate) {
                loader.put(key, value, lastUpdate);
            }

            @Override
            public void remove(K key) {
                throw new IOExceptionUnchecked("a snapshot holds a removal");
            }
        }, files.get(0));
        long time = h.batchTime();
        for (int i = 0; i < deltas.size(); i++) {
            time = applyDelta(loader, time, deltas.get(i), files.get(i + 1));
        }
        return loader.build(time, time);
    }

    /**
     * {@code base} (read from elsewhere, e.g. a RocksDB checkpoint) with {@code deltas} applied, oldest first,
     * in {@code backend}; {@code files} names each delta in errors.
     */
    public <K, S> StateVersion<K, S> applyDeltas(StateBackend backend, StateVersion<K, S> base,
            List<InputStream> deltas, List<String> files) throws IOException {
        if (deltas.isEmpty()) {
            return base;
        }
        StateLoader<K, S> loader = backend.copyOf(base);
        long time = base.batchTime();
        for (int i = 0; i < deltas.size(); i++) {
            time = applyDelta(loader, time, deltas.get(i), files.get(i));
        }
        return loader.build(time, time);
    }

    /** Applies a delta to {@code loader}, which holds the state of batch {@code base}; returns the delta's batch. */
    private <K, S> long applyDelta(StateLoader<K, S> loader, long base, InputStream stream, String file)
            throws IOException {
        Input in = new Input(stream, 1 << 16);
        Header h = readHeader(in, DELTA, file);
        if (h.base() != base) {
            throw new IOException("state file " + file + ": this delta applies to the state of batch " + h.base()
                    + ", not of batch " + base + ": deltas must be applied in order, starting from their snapshot");
        }
        readEntries(in, h, new Sink<K, S>() {
            @Override
            public void put(K key, S value, long lastUpdate) {
                loader.put(key, value, lastUpdate);
            }

            @Override
            public void remove(K key) {
                loader.remove(key);
            }
        }, file);
        return h.batchTime();
    }

    private record Header(long batchTime, long base, boolean timed, int entries) {
    }

    private interface Sink<K, S> {
        void put(K key, S value, long lastUpdate);

        void remove(K key);
    }

    private static final class IOExceptionUnchecked extends RuntimeException {
        IOExceptionUnchecked(String message) {
            super(message);
        }
    }

    private Header readHeader(Input in, byte expectedKind, String file) throws IOException {
        try {
            int magic = in.readInt();
            if (magic != MAGIC) {
                throw new IOException("not a Sluice state file (magic " + Integer.toHexString(magic) + ")");
            }
            int version = in.readInt();
            if (version != FORMAT_VERSION) {
                throw new IOException("state format version " + version + " is not supported (this build reads "
                        + FORMAT_VERSION + ")");
            }
            byte kind = in.readByte();
            if (kind != expectedKind) {
                throw new IOException("expected a " + (expectedKind == SNAPSHOT ? "snapshot" : "delta")
                        + " but found a " + (kind == SNAPSHOT ? "snapshot" : kind == DELTA ? "delta" : "kind " + kind));
            }
            Header h = new Header(in.readLong(), in.readLong(), in.readBoolean(), in.readInt());
            if (h.entries() < 0) {
                throw new IOException("corrupt state file: negative entry count " + h.entries());
            }
            return h;
        } catch (KryoException e) {
            throw new IOException("state file " + file + " is truncated or corrupt: " + e.getMessage(), e);
        }
    }

    @SuppressWarnings("unchecked")
    private <K, S> void readEntries(Input in, Header h, Sink<K, S> sink, String file) throws IOException {
        try {
            for (int i = 0; i < h.entries(); i++) {
                byte kind = in.readByte();
                K key = (K) kryo.readClassAndObject(in);
                if (kind == PUT) {
                    S value = (S) kryo.readClassAndObject(in);
                    sink.put(key, value, in.readLong());
                } else if (kind == REMOVE) {
                    sink.remove(key);
                } else {
                    throw new IOException("corrupt state file: entry kind " + kind);
                }
            }
        } catch (KryoException e) {
            Optional<String> refused = FileKryo.refusedClass(e);
            if (refused.isPresent()) {
                throw new IOException("state file " + file + " names " + refused.get() + ", which is refused: "
                        + e.getMessage(), e);
            }
            throw new IOException("cannot decode an entry of state file " + file + " (a class unknown to this "
                    + "application's Kryo registrations, or a corrupt file): " + e.getMessage(), e);
        } catch (IOExceptionUnchecked e) {
            throw new IOException("corrupt state file " + file + ": " + e.getMessage(), e);
        }
    }
}
