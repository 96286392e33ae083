package io.sluice.dstream.internal.rate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

/** The PID estimator with Spark Streaming's defaults (1.0, 0.2, 0.0, min 100), batch interval 1 s. */
class PidRateEstimatorTest {
    private final PidRateEstimator pid = new PidRateEstimator(1000, 1.0, 0.2, 0.0, 100);

    @Test
    void theFirstBatchOnlyCalibrates() {
        assertEquals(OptionalDouble.empty(), pid.compute(1000, 1000, 500, 0));
    }

    @Test
    void withoutDelayTheRateBecomesTheProcessingRate() {
        pid.compute(1000, 1000, 500, 0);                    // processed at 2000/s
        // now at 4000/s: error = 2000 - 4000, so the rate moves by the whole error (proportional gain 1)
        assertEquals(4000.0, pid.compute(2000, 1000, 250, 0).getAsDouble(), 1e-9);
    }

    @Test
    void aSchedulingDelayPullsTheRateBelowTheProcessingRate() {
        pid.compute(1000, 1000, 1000, 0);                   // 1000/s
        double rate = pid.compute(2000, 1000, 1000, 500).getAsDouble();
        // error 0; historical error = 500 ms * 1000/s / 1000 ms = 500; new = 1000 - 0.2 * 500
        assertEquals(900.0, rate, 1e-9);
    }

    @Test
    void neverBelowTheMinimumAndNothingFromEmptyOrUnprocessedBatches() {
        pid.compute(1000, 1000, 1000, 0);
        assertEquals(OptionalDouble.empty(), pid.compute(2000, 0, 1000, 0));
        assertEquals(OptionalDouble.empty(), pid.compute(3000, 1000, 0, 0));
        assertTrue(pid.compute(3000, 1000, 1000, 0).isPresent());
        assertEquals(OptionalDouble.empty(), pid.compute(3000, 1000, 1000, 0), "time must move forward");
        assertTrue(pid.compute(4000, 10, 100_000, 1_000_000).getAsDouble() >= 100);
    }
}
