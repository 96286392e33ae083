package io.sluice.rdd.internal;

import org.apache.spark.SparkContext;
import org.apache.spark.rdd.RDD;

/**
 * How many tasks a context runs at once, and the packing of a shuffle's map side into that many tasks.
 *
 * <p>A micro-batch's cost is mostly per task: launching it, shipping its closure, reporting its result. When
 * a batch's input has more partitions than the cluster has task slots, the extra map tasks only queue behind
 * the first wave and add that cost. Sluice's own shuffles (by-key aggregations, window partials, state) so
 * read their input through at most one map task per slot, each task reading whole input partitions in turn
 * (Spark's {@code coalesce}, without a shuffle, keeping the input's locality). Setting {@link #PACK_MAP_SIDE}
 * to false keeps one map task per input partition, as Spark does.
 *
 * <p>In local mode, Sluice's own actions ({@code count()}, {@code reduce()}, state checkpoints: see {@link Jobs})
 * also run at most one task per slot, each task running its partitions one after the other ({@link #forActions}):
 * an empty batch's count is then one wave of tasks instead of several. With executors in other processes each
 * partition keeps its own task, so that it runs where its data (or its state) is; {@link #PACK_ACTIONS} set to
 * false keeps one task per partition in local mode too.
 */
public final class TaskSlots {
    /** Whether Sluice's shuffles pack their map side into one task per slot (default true). */
    public static final String PACK_MAP_SIDE = "sluice.shuffle.packMapSide";

    /** Whether Sluice's own actions run one task per slot in local mode (default true). */
    public static final String PACK_ACTIONS = "sluice.actions.packTasks";

    private TaskSlots() {
    }

    /**
     * The tasks {@code sc} can run at once with its default resource profile: the cores of {@code local[n]},
     * the registered executors' cores divided by {@code spark.task.cpus} on a cluster (0 before any registered).
     */
    public static int of(SparkContext sc) {
        // private[spark] in Scala, public in bytecode; every scheduler backend answers it
        return sc.maxNumConcurrentTasks(sc.resourceProfileManager().defaultResourceProfile());
    }

    /**
     * {@code input} read by at most {@link #of} tasks: unchanged when it has no more partitions than slots, when
     * no slot is known yet, or when {@link #PACK_MAP_SIDE} is false.
     */
    public static <T> RDD<T> packed(RDD<T> input) {
        SparkContext sc = input.context();
        if (!sc.conf().getBoolean(PACK_MAP_SIDE, true)) {
            return input;
        }
        int slots = of(sc);
        if (slots <= 0 || input.getNumPartitions() <= slots) {
            return input;
        }
        return input.toJavaRDD().coalesce(slots).rdd();
    }

    /**
     * How many tasks one of Sluice's own actions over {@code rdd} runs: the slots of {@code local[n]} when
     * {@code rdd} has more partitions than that, else 0, meaning one task per partition (also on a cluster, before
     * any slot is known, and when {@link #PACK_ACTIONS} is false).
     */
    public static int forActions(RDD<?> rdd) {
        SparkContext sc = rdd.context();
        if (!sc.isLocal() || !sc.conf().getBoolean(PACK_ACTIONS, true)) {
            return 0;
        }
        int slots = of(sc);
        return slots > 0 && rdd.getNumPartitions() > slots ? slots : 0;
    }
}
