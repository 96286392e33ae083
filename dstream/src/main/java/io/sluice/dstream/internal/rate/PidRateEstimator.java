package io.sluice.dstream.internal.rate;

import java.util.OptionalDouble;

/**
 * Spark Streaming's PID rate estimator, with the same gains and defaults (proportional 1.0, integral 0.2,
 * derivative 0.0, minimum rate 100 records/s). After each batch it compares the rate the source delivered
 * with the rate the batch was processed at (the error), adds the backlog the scheduling delay shows (the
 * integral term: records that arrived but wait, spread over one batch interval), and the error's change (the
 * derivative term). The first batch only calibrates; a batch without records or without processing time gives
 * no estimate. A plain function of its inputs, so it is tested without Spark.
 */
public final class PidRateEstimator {
    private final long batchIntervalMillis;
    private final double proportional;
    private final double integral;
    private final double derivative;
    private final double minRate;
    private boolean firstRun = true;
    private long latestTime = -1;
    private double latestRate = -1;
    private double latestError = -1;

    public PidRateEstimator(long batchIntervalMillis, double proportional, double integral, double derivative,
            double minRate) {
        if (batchIntervalMillis <= 0 || proportional < 0 || integral < 0 || derivative < 0 || minRate <= 0) {
            throw new IllegalArgumentException("PID estimator needs a positive batch interval and min rate and "
                    + "non-negative gains; got " + batchIntervalMillis + " ms, " + proportional + ", " + integral
                    + ", " + derivative + ", " + minRate);
        }
        this.batchIntervalMillis = batchIntervalMillis;
        this.proportional = proportional;
        this.integral = integral;
        this.derivative = derivative;
        this.minRate = minRate;
    }

    /**
     * @param time when the batch completed (ms)
     * @param records records in the batch
     * @param processingDelay ms from its first job's start to its last job's end
     * @param schedulingDelay ms it waited before its first job started
     * @return the new rate in records per second, or empty when this batch gives no estimate
     */
    public synchronized OptionalDouble compute(long time, long records, long processingDelay, long schedulingDelay) {
        if (time <= latestTime || records <= 0 || processingDelay <= 0) {
            return OptionalDouble.empty();
        }
        double sinceUpdate = (time - latestTime) / 1000.0;
        double processingRate = records * 1000.0 / processingDelay;
        double error = latestRate - processingRate;
        double historicalError = schedulingDelay * processingRate / batchIntervalMillis;
        double dError = (error - latestError) / sinceUpdate;
        double newRate = Math.max(latestRate - proportional * error - integral * historicalError
                - derivative * dError, minRate);
        latestTime = time;
        if (firstRun) {
            latestRate = processingRate;
            latestError = 0;
            firstRun = false;
            return OptionalDouble.empty();
        }
        latestRate = newRate;
        latestError = error;
        return OptionalDouble.of(newRate);
    }
}
