package io.sluice.dstream.internal.rate;

import io.sluice.dstream.scheduler.BatchInfo;
import io.sluice.dstream.scheduler.StreamingListener;
import io.sluice.rdd.Time;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Backpressure for one input stream (Spark Streaming's {@code RateController}): the engine makes one per source
 * when {@code sluice.backpressure.enabled} is on, records what the source reports for each batch, and after each
 * completed batch feeds the records and the batch's delays into the PID estimator. The source reads the result
 * as {@code SourceContext.rateLimit()}: the initial rate ({@code sluice.backpressure.initialRate}, if set) until
 * the first estimate, then the latest estimate. The controller is registered before the source starts, so it
 * hears of a batch before any listener the source or the user adds, and they see the rate the batch led to.
 */
public final class RateController implements StreamingListener {
    private static final Logger LOG = LoggerFactory.getLogger(RateController.class);

    private final String source;
    private final PidRateEstimator estimator;
    private final BatchCounts counts = new BatchCounts();
    /** Records per second; 0 while there is no bound (no initial rate and no estimate yet). */
    private volatile long rate;

    public RateController(String source, long batchIntervalMillis, RateSettings settings) {
        this.source = source;
        this.estimator = new PidRateEstimator(batchIntervalMillis, settings.proportional(), settings.integral(),
                settings.derivative(), settings.minRate());
        this.rate = settings.initialRate();
    }

    /** What the source put into batch {@code time} (its report's records), for the estimate after the batch. */
    public void recorded(Time time, long records) {
        counts.put(time, records);
    }

    /** The rate the source should keep to, in records per second; empty while there is none. */
    public OptionalLong rate() {
        long r = rate;
        return r > 0 ? OptionalLong.of(r) : OptionalLong.empty();
    }

    @Override
    public void onBatchCompleted(BatchCompleted event) {
        BatchInfo info = event.batchInfo();
        long records = counts.get(info.batchTime());
        if (records < 0 || info.processingEndTime() < 0) {
            return;
        }
        OptionalDouble estimate = estimator.compute(info.processingEndTime(), records, info.processingDelay(),
                info.schedulingDelay());
        if (estimate.isPresent()) {
            rate = Math.max(1, Math.round(estimate.getAsDouble()));
            LOG.debug("{}: batch {} had {} records in {} ms after {} ms delay; rate now {}/s", source,
                    info.batchTime(), records, info.processingDelay(), info.schedulingDelay(), rate);
        }
    }
}
