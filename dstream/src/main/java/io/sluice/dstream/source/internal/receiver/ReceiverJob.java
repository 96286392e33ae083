package io.sluice.dstream.source.internal.receiver;

import io.sluice.dstream.receiver.Receiver;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.function.VoidFunction;
import org.apache.spark.storage.StorageLevel;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import scala.Tuple2;
import scala.jdk.javaapi.CollectionConverters;
import scala.reflect.ClassTag;
import scala.reflect.ClassTag$;

/**
 * The long-running Spark job that runs one receiver, as Spark Streaming runs it: one task over a one-partition RDD
 * placed where the receiver should run, whose body is the receiver's {@link ReceiverSupervisor}. The job is
 * launched again when its task fails or the receiver moved, until the receiver stops for good or the context
 * stops it.
 */
final class ReceiverJob implements Runnable {
    private static final Logger LOG = LoggerFactory.getLogger(ReceiverJob.class);

    private final JavaSparkContext sc;
    private final TrackedReceiver receiver;
    private final ReceiverSpec spec;
    private final String group;
    private final ReceiverEvents events;

    /** {@code group}: the Spark job group its jobs run in, which a stop that times out cancels. */
    ReceiverJob(JavaSparkContext sc, TrackedReceiver receiver, ReceiverSpec spec, String group,
            ReceiverEvents events) {
        this.sc = sc;
        this.receiver = receiver;
        this.spec = spec;
        this.group = group;
        this.events = events;
    }

    @Override
    public void run() {
        VoidFunction<Iterator<Integer>> body = task(receiver.receiver(), spec);
        int attempt = 0;
        while (!receiver.stopping() && !receiver.finished()) {
            sc.setJobGroup(group, "receiver of " + receiver.source(), true);
            try {
                input(sc, attempt++, locations(receiver)).foreachPartition(body);
            } catch (RuntimeException e) {
                if (!receiver.stopping()) {
                    LOG.warn("The job running {} failed; relaunching it", receiver.source(), e);
                    events.post(receiver, "error", "the receiver's task failed, relaunching it: " + e.getMessage(),
                            e.toString());
                }
            }
        }
    }

    /** Where the receiver's next launch should run: where it moved to, else its own preferred host, else anywhere. */
    static List<String> locations(TrackedReceiver s) {
        List<String> moved = s.launchOn();
        return !moved.isEmpty() ? moved : s.receiver().preferredLocation().map(List::of).orElse(List.of());
    }

    /**
     * The one-partition RDD a receiver's task runs over: it carries the receiver's preferred locations (hosts, or
     * executors as {@code executor_<host>_<id>}), so Spark's scheduler places the task there when it can (after
     * its locality wait, anywhere), as Spark Streaming does.
     */
    static JavaRDD<Integer> input(JavaSparkContext sc, int attempt, List<String> locations) {
        scala.collection.immutable.Seq<Tuple2<Integer, scala.collection.immutable.Seq<String>>> slices =
                CollectionConverters.asScala(List.of(new Tuple2<>(attempt,
                        CollectionConverters.asScala(locations).toSeq()))).toSeq();
        ClassTag<Integer> tag = ClassTag$.MODULE$.apply(Integer.class);
        return new JavaRDD<>(sc.sc().makeRDD(slices, tag), tag);
    }

    /** Built in a static method so the task captures only the receiver and its spec. */
    private static <T> VoidFunction<Iterator<Integer>> task(Receiver<T> receiver, ReceiverSpec spec) {
        return ignored -> ReceiverSupervisor.run(receiver, spec);
    }

    /**
     * A local master has a single block manager, so a replicated level could only warn on every block: keep one
     * copy there. On a cluster the receiver's level stands.
     */
    static StorageLevel storageLevel(JavaSparkContext sc, Receiver<?> receiver) {
        StorageLevel level = receiver.storageLevel();
        if (sc.isLocal() && level.replication() > 1) {
            return StorageLevel.apply(level.useDisk(), level.useMemory(), level.useOffHeap(), level.deserialized(), 1);
        }
        return level;
    }
}
