package io.sluice.dstream.internal.scaling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The decision rule alone: batches of a 1 s interval, decisions every 10 s, executors in [1, 4]. */
class ScalingPolicyTest {
    private static final AutoscalingSettings SETTINGS =
            new AutoscalingSettings(Duration.ofSeconds(10), 0.9, 0.3, 1, 4, false, 2);

    /** A policy that saw one batch per second of {@code processingMillis} each, for {@code seconds}. */
    private static ScalingPolicy after(long processingMillis, int seconds) {
        ScalingPolicy policy = new ScalingPolicy(SETTINGS, 1000, 0);
        for (int i = 0; i < seconds; i++) {
            policy.batchCompleted(processingMillis, false);
        }
        return policy;
    }

    private static Optional<Integer> target(Optional<ScalingPolicy.Decision> d) {
        return d.map(ScalingPolicy.Decision::target);
    }

    @Test
    void addsExecutorsInProportionToTheLoadWithinTheMaximum() {
        assertEquals(Optional.of(2), target(after(950, 10).decide(10_000, 1, 1, false)));
        assertEquals(Optional.of(3), target(after(1600, 10).decide(10_000, 1, 1, false)), "round(1.6) more");
        assertEquals(Optional.of(4), target(after(3000, 10).decide(10_000, 3, 1, false)), "capped at max");
        assertEquals(Optional.empty(), target(after(3000, 10).decide(10_000, 4, 1, false)), "at max already");
    }

    @Test
    void removesOneExecutorAtLowLoadDownToTheMinimum() {
        assertEquals(Optional.of(2), target(after(200, 10).decide(10_000, 3, 1, false)));
        assertEquals(Optional.empty(), target(after(200, 10).decide(10_000, 1, 1, false)), "at min");
        assertEquals(Optional.empty(), target(after(200, 10).decide(10_000, 2, 2, false)), "at a min of 2");
    }

    @Test
    void betweenTheRatiosNothingChanges() {
        assertEquals(Optional.empty(), target(after(600, 10).decide(10_000, 2, 1, false)));
    }

    @Test
    void decidesOncePerScalingIntervalOverTheBatchesInIt() {
        ScalingPolicy policy = after(950, 5);
        assertEquals(Optional.empty(), target(policy.decide(5_000, 1, 1, false)), "interval not over");
        for (int i = 0; i < 5; i++) {
            policy.batchCompleted(950, false);
        }
        assertEquals(Optional.of(2), target(policy.decide(10_000, 1, 1, false)));
        policy.batchCompleted(2000, false);
        assertEquals(Optional.empty(), target(policy.decide(11_000, 2, 1, false)), "the next interval starts now");
        ScalingPolicy.Decision d = policy.decide(20_000, 2, 1, false).orElseThrow();
        assertEquals(1, d.batches(), "only the batch after the last decision counts");
        assertEquals(4, d.target());
    }

    @Test
    void aPendingChangeDefersDecisionsAndDiscardsTheBatchesMeasuredMeanwhile() {
        ScalingPolicy policy = after(2000, 10);
        assertEquals(Optional.empty(), target(policy.decide(10_000, 1, 1, true)));
        for (int i = 0; i < 10; i++) {
            policy.batchCompleted(100, false);
        }
        assertEquals(Optional.empty(), target(policy.decide(15_000, 1, 1, true)), "still pending");
        assertEquals(Optional.empty(), target(policy.decide(20_000, 2, 1, false)), "interval restarted at 15 s");
        policy.batchCompleted(100, false);
        ScalingPolicy.Decision d = policy.decide(25_000, 2, 1, false).orElseThrow();
        assertEquals(1, d.target());
        assertEquals(1, d.batches());
    }

    @Test
    void failedBatchesAndEmptyIntervalsDecideNothing() {
        ScalingPolicy policy = new ScalingPolicy(SETTINGS, 1000, 0);
        policy.batchCompleted(5000, true);
        assertEquals(Optional.empty(), target(policy.decide(10_000, 1, 1, false)));
    }

    @Test
    void settingsAreValidated() {
        assertThrows(IllegalArgumentException.class,
                () -> new AutoscalingSettings(Duration.ofSeconds(1), 0.3, 0.9, 1, 2, false, 2));
        assertThrows(IllegalArgumentException.class,
                () -> new AutoscalingSettings(Duration.ofSeconds(1), 0.9, 0.3, 3, 2, false, 2));
        assertThrows(IllegalArgumentException.class,
                () -> new AutoscalingSettings(Duration.ZERO, 0.9, 0.3, 1, 2, false, 2));
        assertEquals(2, new AutoscalingSettings(Duration.ofSeconds(1), 0.9, 0.3, null, 5, false, 2).minExecutors(2));
        assertEquals(1, new AutoscalingSettings(Duration.ofSeconds(1), 0.9, 0.3, null, 5, false, 2).minExecutors(0));
    }
}
