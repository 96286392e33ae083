package io.sluice.kafka;

import java.io.Serializable;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.TopicPartition;

/**
 * Where the tasks reading each topic partition should run; make one with {@link LocationStrategies}. Spark's
 * {@code LocationStrategy}.
 */
public abstract sealed class LocationStrategy implements Serializable
        permits LocationStrategies.Consistent, LocationStrategies.Brokers, LocationStrategies.Fixed {
    private static final long serialVersionUID = 1L;

    LocationStrategy() {
    }

    /**
     * The preferred host of the task reading {@code partition}, given the host of its leader (when known).
     * Empty: let Spark place it.
     */
    abstract Optional<String> preferredHost(TopicPartition partition, Optional<String> leaderHost);

    /** Whether this strategy needs the partition leaders' hosts (asked of the driver consumer per batch). */
    boolean needsLeaders() {
        return false;
    }

    static Optional<String> fixedHost(Map<TopicPartition, String> hosts, TopicPartition partition) {
        return Optional.ofNullable(hosts.get(partition));
    }
}
