package io.sluice.samples.bench;

import java.io.Serializable;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.apache.spark.storage.StorageLevel;

/**
 * L1's input: a receiver that stores records one at a time at a fixed rate, each stamped with the time it is due.
 * The emitting loop ({@link #emit}) and its thread ({@link Emitter}) are shared by the receivers of both engines
 * ({@link OnSluice}, {@link OnSparkStreaming}), which differ only in the base class: Sluice's {@code Receiver} API
 * mirrors Spark's.
 *
 * <p>Record n is due at start + n / rate. It is stamped with that time, not with the moment {@code store} is called:
 * a record the receiver could not store on time (its {@code store} blocked, or its thread waited for a core) is
 * late because of the engine, and that wait counts in its latency.
 */
final class StampedRecords {
    /** Both engines keep one copy of each block in local mode: ask for one on both. */
    static final StorageLevel STORAGE = StorageLevel.MEMORY_AND_DISK_SER();

    private StampedRecords() {
    }

    /**
     * One record: its key and the wall-clock time (ms) it was due. A plain class, not a record: Spark's Kryo 4 sets
     * fields by reflection, which a record's final fields refuse.
     */
    static final class Stamped implements Serializable {
        private static final long serialVersionUID = 1L;
        private final int key;
        private final long dueMillis;

        Stamped(int key, long dueMillis) {
            this.key = key;
            this.dueMillis = dueMillis;
        }

        int key() {
            return key;
        }

        long dueMillis() {
            return dueMillis;
        }
    }

    /** Stores {@code perSecond} records a second through {@code store} until {@code stopped}. */
    static void emit(int perSecond, int keys, Consumer<Stamped> store, BooleanSupplier stopped) {
        long startNanos = System.nanoTime();
        long startMillis = System.currentTimeMillis();
        long emitted = 0;
        while (!stopped.getAsBoolean()) {
            long due = (System.nanoTime() - startNanos) * perSecond / 1_000_000_000L;
            for (; emitted < due && !stopped.getAsBoolean(); emitted++) {
                store.accept(new Stamped(key(emitted, keys), startMillis + emitted * 1000 / perSecond));
            }
            LockSupport.parkNanos(1_000_000);
        }
    }

    /** The key of record n: spread over {@code keys} with the hash of the standard input. */
    static int key(long n, int keys) {
        long x = n * 0x9E3779B97F4A7C15L;
        x ^= x >>> 29;
        return (int) Math.floorMod(x, (long) keys);
    }

    /**
     * What a receiver emits ({@code perSecond} records a second over {@code keys} keys), and the thread that emits
     * it: all that the receivers of both engines hold.
     */
    static final class Emitter implements Serializable {
        private static final long serialVersionUID = 1L;
        private final int perSecond;
        private final int keys;

        Emitter(int perSecond, int keys) {
            this.perSecond = perSecond;
            this.keys = keys;
        }

        /** Starts a daemon thread that {@link #emit}s through {@code store} until {@code stopped}. */
        void start(Consumer<Stamped> store, BooleanSupplier stopped) {
            Thread emitter = new Thread(() -> emit(perSecond, keys, store, stopped), "l1-emitter");
            emitter.setDaemon(true);
            emitter.start();
        }
    }

    /** The emitter as a Sluice receiver. */
    static final class OnSluice extends io.sluice.dstream.receiver.Receiver<Stamped> {
        private static final long serialVersionUID = 1L;
        private final Emitter emitter;

        OnSluice(Emitter emitter) {
            super(STORAGE);
            this.emitter = emitter;
        }

        @Override
        public void onStart() {
            emitter.start(this::store, this::isStopped);
        }

        @Override
        public void onStop() {
            // the emitter sees isStopped() and ends
        }
    }

    /** The emitter as a Spark Streaming receiver. */
    static final class OnSparkStreaming extends org.apache.spark.streaming.receiver.Receiver<Stamped> {
        private static final long serialVersionUID = 1L;
        private final Emitter emitter;

        OnSparkStreaming(Emitter emitter) {
            super(STORAGE);
            this.emitter = emitter;
        }

        @Override
        public void onStart() {
            emitter.start(this::store, this::isStopped);
        }

        @Override
        public void onStop() {
            // the emitter sees isStopped() and ends
        }
    }
}
