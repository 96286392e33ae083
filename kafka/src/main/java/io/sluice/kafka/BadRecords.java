package io.sluice.kafka;

import java.io.Serializable;
import java.util.HashSet;
import java.util.List;
import org.apache.kafka.common.errors.RecordDeserializationException;
import org.apache.spark.SparkContext;
import org.apache.spark.util.CollectionAccumulator;

/**
 * What a batch's tasks do with a record that fails to deserialize, by {@code sluice.input.badRecords}: skip it
 * and count it ({@code replace}, the default, and {@code skip}: a record whose bytes do not deserialize has
 * nothing a decoder could repair), or fail the task with a message naming the stream, batch, partition and
 * offset ({@code fail}). Skipped records are keyed by partition and offset, so a task run twice (a retry, a
 * second output over the batch) counts nothing twice; the count is known once the batch's jobs ran.
 */
final class BadRecords implements Serializable {
    private static final long serialVersionUID = 1L;
    static final String SETTING = "sluice.input.badRecords";

    private final String where;
    private final CollectionAccumulator<String> skipped; // null: fail

    private BadRecords(String where, CollectionAccumulator<String> skipped) {
        this.where = where;
        this.skipped = skipped;
    }

    static BadRecords fail(String where) {
        return new BadRecords(where, null);
    }

    /** Whether the setting's value ({@code replace}, {@code skip} or {@code fail}) says to skip. */
    static boolean skips(String setting) {
        return switch (setting.trim().toLowerCase(java.util.Locale.ROOT)) {
            case "fail" -> false;
            case "replace", "skip" -> true;
            default -> throw new IllegalArgumentException(SETTING + " must be replace, skip or fail, was " + setting);
        };
    }

    /** The policy of the batch {@code where} names. */
    static BadRecords forBatch(boolean skip, String where, SparkContext sc) {
        return skip ? new BadRecords(where, sc.collectionAccumulator(where + " skipped")) : fail(where);
    }

    /** Counts {@code e}'s record as skipped, or throws what the task fails with. */
    void handle(RecordDeserializationException e) {
        if (skipped == null) {
            throw new IllegalStateException(where + ": the record at offset " + e.offset() + " of " + e.topicPartition()
                    + " failed to deserialize (set " + SETTING + "=skip or leave it unset to skip and count such records): "
                    + e.getMessage(), e);
        }
        skipped.add(e.topicPartition() + "#" + e.offset());
    }

    long skippedCount() {
        return skipped == null ? 0 : new HashSet<>(List.copyOf(skipped.value())).size();
    }
}
