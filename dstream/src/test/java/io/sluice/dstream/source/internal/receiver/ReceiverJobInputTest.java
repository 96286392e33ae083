package io.sluice.dstream.source.internal.receiver;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.dstream.receiver.Receiver;
import io.sluice.testkit.SharedSpark;
import java.util.List;
import java.util.Optional;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.storage.StorageLevel;
import org.junit.jupiter.api.Test;
import scala.jdk.javaapi.CollectionConverters;

/** The RDD a receiver's task runs over carries the receiver's preferred host to Spark's scheduler. */
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
        JavaRDD<Integer> pinned = ReceiverTracker.receiverJobInput(SharedSpark.context(), 3, new Pinned("worker-7"));
        assertEquals(List.of("worker-7"), preferredLocations(pinned));
        assertEquals(List.of(3), pinned.collect(), "the task's one element is the attempt number");

        JavaRDD<Integer> anywhere = ReceiverTracker.receiverJobInput(SharedSpark.context(), 0, new Pinned(null));
        assertEquals(List.of(), preferredLocations(anywhere));
        assertEquals(List.of(0), anywhere.collect());
    }

    private static List<String> preferredLocations(JavaRDD<Integer> rdd) {
        assertEquals(1, rdd.getNumPartitions());
        return CollectionConverters.asJava(rdd.rdd().preferredLocations(rdd.rdd().partitions()[0]));
    }
}
