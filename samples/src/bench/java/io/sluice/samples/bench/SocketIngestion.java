package io.sluice.samples.bench;

import io.sluice.dstream.StreamingContext;
import io.sluice.dstream.StreamingContextBuilder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.streaming.Durations;
import org.apache.spark.streaming.api.java.JavaStreamingContext;
import org.apache.spark.streaming.scheduler.StreamingListener;
import org.apache.spark.streaming.scheduler.StreamingListenerBatchCompleted;

/**
 * R1: receiver ingestion. A loopback server ({@link LineFeeder}) writes pre-generated lines as fast as the socket
 * takes them; each side reads them with its {@code socketTextStream} (one receiver, default storage level) into a
 * count. The figure is the records the counted batches held per second of those batches' time, or of their
 * processing time if that was longer (then the count, not the receiver, was the limit): what one receiver takes
 * in, and the pipeline gets through, when the source is never the limit. Batches of 1 s (unless
 * {@code bench.interval.ms} says otherwise).
 */
final class SocketIngestion implements Workload {
    private static final int KEYS = 200_000;

    @Override
    public String id() {
        return "R1";
    }

    @Override
    public String description() {
        return "socketTextStream from a loopback server → count (one receiver)";
    }

    @Override
    public Figure figure() {
        return Figure.THROUGHPUT;
    }

    @Override
    public double target() {
        return 1.5;
    }

    @Override
    public Measurement run(Side side, BenchSettings settings) throws Exception {
        Duration interval = settings.standard() ? Duration.ofSeconds(1) : settings.interval();
        BatchTimes times = new BatchTimes(settings.batches());
        List<Long> records = new ArrayList<>();
        Map<String, String> conf = StandardRun.sparkSettings(settings, id() + "-" + side.name().toLowerCase());
        Duration timeout = interval.multipliedBy(settings.batches() + 10L).plusMinutes(2);
        try (LineFeeder feeder = new LineFeeder(KEYS)) {
            if (side == Side.SLUICE) {
                StreamingContextBuilder builder = StreamingContext.builder().batchInterval(interval);
                conf.forEach(builder::conf);
                StreamingContext ssc = builder.build();
                try {
                    ssc.sparkContext().setLogLevel("WARN");
                    ssc.socketTextStream("127.0.0.1", feeder.port()).count().foreachRDD(rdd -> rdd.collect());
                    ssc.addStreamingListener(new io.sluice.dstream.scheduler.StreamingListener() {
                        @Override
                        public void onBatchCompleted(BatchCompleted event) {
                            synchronized (records) {
                                records.add(event.batchInfo().numRecords());
                            }
                            times.completed(event.batchInfo().processingDelay(),
                                    event.batchInfo().failed() ? "batch " + event.batchInfo().batchTime() : null);
                        }
                    });
                    ssc.start();
                    times.await(timeout);
                } finally {
                    ssc.stop(true, false);
                }
            } else {
                SparkConf sparkConf = new SparkConf();
                conf.forEach(sparkConf::set);
                JavaStreamingContext ssc = new JavaStreamingContext(new JavaSparkContext(sparkConf),
                        Durations.milliseconds(interval.toMillis()));
                try {
                    ssc.sparkContext().setLogLevel("ERROR"); // replication warnings for every block in local mode
                    ssc.socketTextStream("127.0.0.1", feeder.port()).count().foreachRDD(rdd -> {
                        rdd.collect();
                    });
                    ssc.addStreamingListener(new StreamingListener() {
                        @Override
                        public void onBatchCompleted(StreamingListenerBatchCompleted event) {
                            synchronized (records) {
                                records.add(event.batchInfo().numRecords());
                            }
                            times.completed((Long) event.batchInfo().processingDelay().get(), null);
                        }
                    });
                    ssc.start();
                    times.await(timeout);
                } finally {
                    ssc.stop(true, false);
                }
            }
        }
        List<Long> counted;
        synchronized (records) {
            counted = List.copyOf(records.subList(settings.warmup(), settings.batches()));
        }
        long total = counted.stream().mapToLong(Long::longValue).sum();
        // Through the source *and* into the count: the intake per second of batch time, unless processing the
        // batches took longer than that time (they queue up), in which case the processing rate is the limit.
        List<Long> processing = times.counted(settings.warmup(), settings.batches());
        double processingSeconds = processing.stream().mapToLong(Long::longValue).sum() / 1000.0;
        double batchSeconds = counted.size() * interval.toMillis() / 1000.0;
        double perSecond = total / Math.max(batchSeconds, processingSeconds);
        return new Measurement(perSecond, "-", total + " records in " + counted.size() + " batches of "
                + interval.toMillis() + " ms, processed in " + processingSeconds + " s; per batch " + counted
                + "; processing ms " + processing);
    }
}
