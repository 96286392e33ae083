package io.sluice.kafka;

import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.TopicPartition;

/** The {@link LocationStrategy}s, as Spark's {@code LocationStrategies}. */
public final class LocationStrategies {
    private LocationStrategies() {
    }

    /** Spread partitions over the executors: what most jobs use. */
    public static LocationStrategy PreferConsistent() {
        return new Consistent();
    }

    /** Read each partition on the host of its leader broker: for executors running on the brokers' hosts. */
    public static LocationStrategy PreferBrokers() {
        return new Brokers();
    }

    /** Read the given partitions on the given hosts; the others as {@link #PreferConsistent()}. */
    public static LocationStrategy PreferFixed(Map<TopicPartition, String> hostMap) {
        return new Fixed(Map.copyOf(hostMap));
    }

    static final class Consistent extends LocationStrategy {
        private static final long serialVersionUID = 1L;

        @Override
        Optional<String> preferredHost(TopicPartition partition, Optional<String> leaderHost) {
            return Optional.empty();
        }
    }

    static final class Brokers extends LocationStrategy {
        private static final long serialVersionUID = 1L;

        @Override
        Optional<String> preferredHost(TopicPartition partition, Optional<String> leaderHost) {
            return leaderHost;
        }

        @Override
        boolean needsLeaders() {
            return true;
        }
    }

    static final class Fixed extends LocationStrategy {
        private static final long serialVersionUID = 1L;
        private final Map<TopicPartition, String> hosts;

        Fixed(Map<TopicPartition, String> hosts) {
            this.hosts = hosts;
        }

        @Override
        Optional<String> preferredHost(TopicPartition partition, Optional<String> leaderHost) {
            return fixedHost(hosts, partition);
        }
    }
}
