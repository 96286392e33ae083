package io.sluice.dstream.internal;

import io.sluice.rdd.BatchTimeMap;
import io.sluice.rdd.Time;
import io.sluice.rdd.internal.Exchange;
import java.util.Map;

/**
 * An operator's exchanges, by batch time: released once their batch completed (what reads them is computed and
 * persisted; a recomputation exchanges the batch's records again), and discarded once the operator forgets
 * that batch. {@link Operator} keeps one for every operator.
 */
final class ExchangeSeries {
    private final BatchTimeMap<Exchange<?, ?>> running = new BatchTimeMap<>();
    private final BatchTimeMap<Exchange<?, ?>> released = new BatchTimeMap<>();

    void add(Time time, Exchange<?, ?> exchange) {
        running.put(time, exchange);
    }

    /** Releases the exchanges of batches up to {@code time}, which completed. */
    void batchDone(Time time) {
        for (Map.Entry<Time, Exchange<?, ?>> done : running.forgetThrough(time).entrySet()) {
            done.getValue().release();
            released.put(done.getKey(), done.getValue());
        }
    }

    /** Discards the released exchanges of batches up to and including {@code time}. */
    void forgetThrough(Time time) {
        released.forgetThrough(time).values().forEach(Exchange::discard);
    }
}
