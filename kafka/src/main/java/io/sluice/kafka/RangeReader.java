package io.sluice.kafka;

import java.time.Duration;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RecordDeserializationException;

/**
 * Reads one offset range with a consumer assigned to its partition alone; calls {@code done} with whether it
 * reached the range's end (the consumer may then be kept for the next batch). Offsets without a record
 * (transaction markers, compacted records) are passed over: the range ends at its until-offset, not a count.
 */
final class RangeReader<K, V> implements Iterator<ConsumerRecord<K, V>> {
    private final KafkaConsumer<K, V> consumer;
    private final OffsetRange range;
    private final TopicPartition partition;
    private final Duration pollTimeout;
    private final Consumer<Boolean> done;
    private final BadRecords badRecords;
    private Iterator<ConsumerRecord<K, V>> buffer = Collections.emptyIterator();
    private ConsumerRecord<K, V> next;
    private boolean finished;

    RangeReader(KafkaConsumer<K, V> consumer, OffsetRange range, Duration pollTimeout, BadRecords badRecords,
            Consumer<Boolean> done) {
        this.badRecords = badRecords;
        this.consumer = consumer;
        this.range = range;
        this.partition = range.topicPartition();
        this.pollTimeout = pollTimeout;
        this.done = done;
        // A kept consumer that ended the previous range where this one starts reads on without a seek, keeping
        // what it fetched ahead (as Spark's cached consumer does); any other is assigned and positioned.
        if (!consumer.assignment().equals(Set.of(partition))) {
            consumer.assign(List.of(partition));
            consumer.seek(partition, range.fromOffset());
        } else if (consumer.position(partition) != range.fromOffset()) {
            consumer.seek(partition, range.fromOffset());
        }
    }

    @Override
    public boolean hasNext() {
        if (next != null) {
            return true;
        }
        if (finished) {
            return false;
        }
        while (true) {
            while (buffer.hasNext()) {
                ConsumerRecord<K, V> r = buffer.next();
                if (r.offset() >= range.untilOffset()) {
                    return finish();
                }
                if (r.offset() >= range.fromOffset()) {
                    next = r;
                    return true;
                }
            }
            if (consumer.position(partition) >= range.untilOffset()) {
                return finish();
            }
            List<ConsumerRecord<K, V>> polled;
            try {
                polled = consumer.poll(pollTimeout).records(partition);
            } catch (RecordDeserializationException e) {
                badRecords.handle(e); // throws, unless the record is to be skipped
                consumer.seek(partition, e.offset() + 1);
                continue;
            }
            if (polled.isEmpty() && consumer.position(partition) < range.untilOffset()) {
                throw new IllegalStateException("no records of " + range + " at offset " + consumer.position(partition)
                        + " within " + pollTimeout.toMillis() + " ms (spark.streaming.kafka.consumer.poll.ms): "
                        + "the broker is unreachable, or the records were deleted by retention");
            }
            buffer = polled.iterator();
        }
    }

    @Override
    public ConsumerRecord<K, V> next() {
        if (!hasNext()) {
            throw new NoSuchElementException(range.toString());
        }
        ConsumerRecord<K, V> r = next;
        next = null;
        return r;
    }

    private boolean finish() {
        finished = true;
        done.accept(true);
        return false;
    }
}
