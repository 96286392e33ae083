package io.sluice.dstream.internal;

import io.sluice.rdd.BatchTimeMap;
import io.sluice.rdd.Time;
import io.sluice.rdd.internal.LocalCachedRDD;
import io.sluice.rdd.internal.Lineage;
import java.util.Optional;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.storage.StorageLevel;

/**
 * The RDDs an operator keeps, one per batch time: persisted and lineage-cut as they are added, unpersisted
 * when forgotten. The newest forgotten RDD whose lineage was cut (the anchor) stays persisted until a newer
 * cut one is forgotten: the RDDs still kept may descend from it, and a local checkpoint lives only in its
 * persisted blocks. Every operator that keeps RDDs (outputs, state, window maps) keeps them in one of these.
 *
 * <p>An {@link #internal()} series keeps RDDs no user code sees (a state, a window's maps, a window's batches).
 * In local mode it caches them as {@link LocalCachedRDD}s, out of Spark's block bookkeeping, whose cost grows
 * with the number of RDDs kept; one whose lineage is cut is persisted as Spark does it (a checkpoint needs that).
 * Users' streams keep Spark's persistence, so that their RDDs show the storage level they asked for.
 */
public final class RddSeries<T> {
    private final BatchTimeMap<JavaRDD<T>> rdds = new BatchTimeMap<>();
    private final boolean internal;
    private volatile JavaRDD<T> anchor;

    public RddSeries() {
        this(false);
    }

    private RddSeries(boolean internal) {
        this.internal = internal;
    }

    /** A series of RDDs that never reach user code (see the class comment). */
    public static <T> RddSeries<T> internal() {
        return new RddSeries<>(true);
    }

    public Optional<JavaRDD<T>> get(Time time) {
        return rdds.get(time);
    }

    /**
     * Keeps {@code rdd} as the one of {@code time}, persisted at {@code level} (unless it is already), cut if
     * asked; returns the RDD kept, which is {@code rdd} or, in an internal series, a cache of it to read instead.
     */
    public JavaRDD<T> add(Time time, JavaRDD<T> rdd, StorageLevel level, boolean cutLineage) {
        JavaRDD<T> kept = rdd;
        if (!level.equals(StorageLevel.NONE()) && rdd.getStorageLevel().equals(StorageLevel.NONE())) {
            if (internal && !cutLineage && LocalCachedRDD.isAvailable(rdd.context())) {
                kept = new JavaRDD<>(LocalCachedRDD.of(rdd.rdd(), level), rdd.classTag());
            } else {
                rdd.persist(level);
            }
        }
        if (cutLineage) {
            Lineage.cut(kept);
        }
        rdds.put(time, kept);
        return kept;
    }

    /** Forgets the RDDs up to and including {@code time}, oldest first, keeping the newest cut one as the anchor. */
    public void forgetThrough(Time time) {
        for (JavaRDD<T> rdd : rdds.forgetThrough(time).values()) { // oldest first
            if (Lineage.isCut(rdd)) {
                JavaRDD<T> previousAnchor = anchor;
                anchor = rdd;
                if (previousAnchor != null) {
                    Lineage.discard(previousAnchor);
                }
            } else if (rdd.rdd() instanceof LocalCachedRDD<?> cached) {
                cached.drop(false);
            } else if (!rdd.getStorageLevel().equals(StorageLevel.NONE())) {
                rdd.unpersist(false);
            }
        }
    }

    public int size() {
        return rdds.size();
    }
}
