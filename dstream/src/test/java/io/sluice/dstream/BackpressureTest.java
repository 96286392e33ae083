package io.sluice.dstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.testkit.ManualClock;
import io.sluice.dstream.scheduler.BatchInfo;
import io.sluice.testkit.SharedSpark;
import io.sluice.testkit.SlowSink;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Backpressure against a sink that becomes 4× slower mid-run, in virtual time: deterministic, and no sleeping.
 *
 * <p>The design. Everything runs on a {@link ManualClock} with a 1 s batch interval, and only two parties move
 * it: the sink, which "processes" a batch by advancing the clock by the batch's records × a per-record cost
 * (0.04 ms, so 25,000 records/s; 0.16 ms, i.e. 6,250 records/s, from batch time 10 s on), and the test, which moves
 * it to the next batch time only when the system is idle. The source is the engine's rate stream: each batch
 * holds exactly rate × interval records, the rate being 10,000/s or what the PID controller set. So a batch's
 * processing delay is its cost, and when the sink runs past batch boundaries, those batches are generated while
 * it runs and wait, which is a real scheduling delay measured on the same clock.
 *
 * <p>{@link SlowSink} (the test kit's) explains what makes it deterministic: the rate a batch gets is a function
 * of the earlier batches alone, whatever the threads' timing.
 *
 * <p>The numbers: the source offers 10,000 records/s, 1.6 times what the slow sink takes. Any controller reacts
 * only after the first slow batch completed, and the batch generated meanwhile still has the old rate; with
 * this margin the delay stays under two intervals while the rate comes down. (At an offered load of twice the
 * slow capacity, the first two slow batches alone would add 2 s of delay before any feedback could arrive.)
 */
class BackpressureTest {
    private static final long INTERVAL = 1000;
    private static final long OFFERED_RATE = 10_000;
    private static final long FAST_NANOS_PER_RECORD = 40_000;
    private static final long SLOW_NANOS_PER_RECORD = 160_000;
    /** What the slow sink can take: 1 s / 0.16 ms. */
    private static final double SLOW_CAPACITY = 6_250;
    private static final long SLOWDOWN_AT = 10_000;
    private static final int BATCHES = 40;

    private static List<BatchInfo> run(boolean backpressure) throws Exception {
        ManualClock clock = new ManualClock();
        StreamingContext ssc = StreamingContext.create(SharedSpark.context(), Duration.ofMillis(INTERVAL), clock);
        ssc.conf(Settings.BACKPRESSURE_ENABLED, String.valueOf(backpressure));
        SlowSink sink = new SlowSink(clock, Duration.ofMillis(INTERVAL), BATCHES);
        ssc.rateStream(OFFERED_RATE, 100, 7).foreachRDD((rdd, time) -> {
            long cost = time.milliseconds() >= SLOWDOWN_AT ? SLOW_NANOS_PER_RECORD : FAST_NANOS_PER_RECORD;
            sink.process(time, Duration.ofNanos(rdd.count() * cost));
        });
        ssc.start();
        return sink.run(ssc); // its listener after start: the rate controller hears of each batch first
    }

    private static void print(String title, List<BatchInfo> batches) {
        System.out.println(SlowSink.table(title, batches));
    }

    @Test
    void withBackpressureTheDelayStaysBoundedAndTheRateSettlesAtTheSinksCapacity() throws Exception {
        List<BatchInfo> on = run(true);
        print("backpressure on", on);
        for (BatchInfo b : on) {
            assertTrue(b.schedulingDelay() < 2 * INTERVAL, "batch " + b.batchTime() + " waited " + b.schedulingDelay()
                    + " ms, not under 2 batch intervals");
        }
        double settled = on.subList(BATCHES - 10, BATCHES).stream().mapToLong(BatchInfo::numRecords).average()
                .orElseThrow() * 1000.0 / INTERVAL;
        assertTrue(settled > 0.8 * SLOW_CAPACITY && settled < 1.2 * SLOW_CAPACITY, "input rate settled at "
                + settled + " records/s; the slow sink takes " + SLOW_CAPACITY + "/s");
        assertEquals(OFFERED_RATE, on.get(5).numRecords(), "before the slowdown the source runs at its maximum");
    }

    @Test
    void withoutBackpressureTheDelayGrows() throws Exception {
        List<BatchInfo> off = run(false);
        print("backpressure off", off);
        long earlier = off.get(BATCHES - 10).schedulingDelay();
        long last = off.get(BATCHES - 1).schedulingDelay();
        assertTrue(last > earlier && last > 10 * INTERVAL, "delay went from " + earlier + " to " + last + " ms");
        assertTrue(off.stream().allMatch(b -> b.numRecords() == OFFERED_RATE));
    }
}
