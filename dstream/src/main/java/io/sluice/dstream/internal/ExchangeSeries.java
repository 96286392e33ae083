package io.sluice.dstream.internal;

import io.sluice.rdd.Time;
import io.sluice.rdd.internal.Exchange;
import java.util.Map;
import java.util.NavigableMap;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * An operator's exchanges, by batch time: released once their batch completed (what reads them is computed and
 * persisted; a recomputation exchanges the batch's records again), and discarded once the operator forgets
 * that batch.
 */
public final class ExchangeSeries<K, V> {
    private final NavigableMap<Time, Exchange<K, V>> running = new ConcurrentSkipListMap<>();
    private final NavigableMap<Time, Exchange<K, V>> released = new ConcurrentSkipListMap<>();

    public void add(Time time, Exchange<K, V> exchange) {
        running.put(time, exchange);
    }

    /** Releases the exchanges of batches up to {@code time}, which completed. */
    public void batchDone(Time time) {
        Map<Time, Exchange<K, V>> done = running.headMap(time, true);
        done.values().forEach(Exchange::release);
        released.putAll(done);
        done.clear();
    }

    /** Discards the released exchanges of batches up to and including {@code time}. */
    public void forgetThrough(Time time) {
        Map<Time, Exchange<K, V>> old = released.headMap(time, true);
        old.values().forEach(Exchange::discard);
        old.clear();
    }
}
