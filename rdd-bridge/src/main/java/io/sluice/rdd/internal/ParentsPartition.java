package io.sluice.rdd.internal;

import java.io.IOException;
import java.io.ObjectOutputStream;
import org.apache.spark.Partition;

/**
 * A partition whose task reads partitions of parent RDDs: it carries them, and re-reads them when the task is
 * serialized, because a parent whose lineage was cut in the meantime has new partitions (as Spark's zipped and
 * coalesced partitions do). Two such partitions are equal when they are of one class and index.
 */
public abstract class ParentsPartition implements Partition {
    private static final long serialVersionUID = 1L;
    private final int index;

    protected ParentsPartition(int index) {
        this.index = index;
    }

    /** Reads the parents' current partitions into this partition's fields (parents are null after a task ships). */
    protected abstract void refresh();

    @Override
    public final int index() {
        return index;
    }

    @Override
    public final int hashCode() {
        return index;
    }

    @Override
    public final boolean equals(Object other) {
        return other != null && other.getClass() == getClass() && ((ParentsPartition) other).index == index;
    }

    private void writeObject(ObjectOutputStream out) throws IOException {
        refresh();
        out.defaultWriteObject();
    }
}
