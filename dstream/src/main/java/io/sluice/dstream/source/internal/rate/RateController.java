package io.sluice.dstream.source.internal.rate;

import io.sluice.dstream.source.internal.SourceSettings;
import io.sluice.dstream.scheduler.BatchInfo;
import io.sluice.dstream.scheduler.StreamingListener;
import java.util.OptionalDouble;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Backpressure for one source: listens for completed batches and sets the source's rate to the PID estimate
 * (never above the source's configured maximum). It updates the rate on the listener thread before later
 * listeners hear of the batch, so whoever waits for a batch's completion sees the rate it led to.
 */
public final class RateController implements StreamingListener {
    private static final Logger LOG = LoggerFactory.getLogger(RateController.class);

    private final RateLimitedSource source;
    private final PidRateEstimator estimator;

    public RateController(RateLimitedSource source, long batchIntervalMillis, SourceSettings settings) {
        this.source = source;
        this.estimator = new PidRateEstimator(batchIntervalMillis, settings.proportional(), settings.integral(),
                settings.derivative(), settings.minRate());
    }

    @Override
    public void onBatchCompleted(BatchCompleted event) {
        BatchInfo info = event.batchInfo();
        long records = source.recordsAt(info.batchTime());
        if (records < 0 || info.processingEndTime() < 0) {
            return;
        }
        OptionalDouble estimate = estimator.compute(info.processingEndTime(), records, info.processingDelay(),
                info.schedulingDelay());
        if (estimate.isPresent()) {
            long rate = Math.max(1, Math.round(estimate.getAsDouble()));
            long max = source.maxRate();
            if (max > 0) {
                rate = Math.min(rate, max);
            }
            LOG.debug("{}: batch {} had {} records in {} ms after {} ms delay; rate now {}/s", source.sourceName(),
                    info.batchTime(), records, info.processingDelay(), info.schedulingDelay(), rate);
            source.updateRate(rate);
        }
    }
}
