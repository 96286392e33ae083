package io.sluice.dstream.source.internal.receiver;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.dstream.receiver.Receiver;
import io.sluice.rdd.ExecutorLocation;
import io.sluice.testkit.SharedSpark;
import java.util.List;
import java.util.Optional;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.storage.StorageLevel;
import org.junit.jupiter.api.Test;
import scala.jdk.javaapi.CollectionConverters;

/**
 * The RDD a receiver's task runs over carries the receiver's preferred host to Spark's scheduler, or once the
 * receiver moved, the executors it moved to.
 */
class ReceiverJobInputTest {
    static final class Pinned extends Receiver<String> {
        private final String host;

        Pinned(String host) {
            super(StorageLevel.MEMORY_ONLY());
            this.host = host;
        }

        @Override
        public void onStart() {
        }

        @Override
        public void onStop() {
        }

        @Override
        public Optional<String> preferredLocation() {
            return Optional.ofNullable(host);
        }
    }

    @Test
    void aPreferredHostBecomesThePreferredLocationOfTheReceiverTask() {
        JavaRDD<Integer> pinned = ReceiverJob.input(SharedSpark.context(), 3,
                ReceiverJob.locations(stream(new Pinned("worker-7"))));
        assertEquals(List.of("worker-7"), preferredLocations(pinned));
        assertEquals(List.of(3), pinned.collect(), "the task's one element is the attempt number");

        JavaRDD<Integer> anywhere = ReceiverJob.input(SharedSpark.context(), 0,
                ReceiverJob.locations(stream(new Pinned(null))));
        assertEquals(List.of(), preferredLocations(anywhere));
        assertEquals(List.of(0), anywhere.collect());
    }

    @Test
    void aMovedReceiverPrefersTheExecutorsItMovedTo() {
        TrackedReceiver s = stream(new Pinned("worker-7"));
        s.launchOn(List.of(new ExecutorLocation("10.0.0.2", "3").toString(),
                new ExecutorLocation("10.0.0.1", "1").toString()));
        JavaRDD<Integer> moved = ReceiverJob.input(SharedSpark.context(), 1,
                ReceiverJob.locations(s));
        assertEquals(List.of("executor_10.0.0.2_3", "executor_10.0.0.1_1"), preferredLocations(moved));
    }

    private static TrackedReceiver stream(Receiver<?> receiver) {
        return new TrackedReceiver(0, "test receiver", "test", receiver, null, 0, 0);
    }

    private static List<String> preferredLocations(JavaRDD<Integer> rdd) {
        assertEquals(1, rdd.getNumPartitions());
        return CollectionConverters.asJava(rdd.rdd().preferredLocations(rdd.rdd().partitions()[0]));
    }
}
