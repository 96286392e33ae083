package io.sluice.dstream.internal;

import io.sluice.rdd.Time;
import io.sluice.rdd.internal.Lineage;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.concurrent.ConcurrentSkipListMap;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.storage.StorageLevel;

/**
 * The RDDs an operator keeps, one per batch time: persisted and lineage-cut as they are added, unpersisted
 * when forgotten. The newest forgotten RDD whose lineage was cut (the anchor) stays persisted until a newer
 * cut one is forgotten: the RDDs still kept may descend from it, and a local checkpoint lives only in its
 * persisted blocks. Every operator that keeps RDDs (outputs, state, window maps) keeps them in one of these.
 */
public final class RddSeries<T> {
    private final NavigableMap<Time, JavaRDD<T>> rdds = new ConcurrentSkipListMap<>();
    private volatile JavaRDD<T> anchor;

    public Optional<JavaRDD<T>> get(Time time) {
        return Optional.ofNullable(rdds.get(time));
    }

    /** Keeps {@code rdd} as the one of {@code time}, persisted at {@code level} (unless it is already), cut if asked. */
    public JavaRDD<T> add(Time time, JavaRDD<T> rdd, StorageLevel level, boolean cutLineage) {
        if (!level.equals(StorageLevel.NONE()) && rdd.getStorageLevel().equals(StorageLevel.NONE())) {
            rdd.persist(level);
        }
        if (cutLineage) {
            Lineage.cut(rdd);
        }
        rdds.put(time, rdd);
        return rdd;
    }

    /** Forgets the RDDs up to and including {@code time}, oldest first, keeping the newest cut one as the anchor. */
    public void forgetThrough(Time time) {
        Map<Time, JavaRDD<T>> old = rdds.headMap(time, true);
        for (JavaRDD<T> rdd : old.values()) { // oldest first
            if (Lineage.isCut(rdd)) {
                JavaRDD<T> previousAnchor = anchor;
                anchor = rdd;
                if (previousAnchor != null) {
                    Lineage.discard(previousAnchor);
                }
            } else if (!rdd.getStorageLevel().equals(StorageLevel.NONE())) {
                rdd.unpersist(false);
            }
        }
        old.clear();
    }

    public int size() {
        return rdds.size();
    }
}
