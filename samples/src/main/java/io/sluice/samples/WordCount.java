package io.sluice.samples;

import io.sluice.dstream.DStream;
import io.sluice.dstream.PairDStream;
import io.sluice.dstream.StreamingContext;
import io.sluice.dstream.scheduler.BatchInfo;
import io.sluice.dstream.scheduler.StreamingListener;
import java.io.Serializable;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import scala.Tuple2;

/**
 * Streaming word count on Sluice's deterministic generator source: every batch prints its five most frequent
 * words, and a listener prints one progress line per batch. It stops by itself, gracefully, after the number
 * of batches asked for.
 *
 * <p>Options (all optional): {@code --records N} per batch (default 100000), {@code --keys N} distinct words
 * (default 10000), {@code --batches N} to run (default 10), {@code --interval-ms N} batch interval (default
 * 1000), {@code --output DIR} to also save each batch's counts as text files {@code DIR/counts-<batch ms>.txt}
 * (any Hadoop file system URI; default: print only). The master is spark-submit's when it set one, else
 * {@code local[*]}.
 */
public final class WordCount {
    private WordCount() {
    }

    /** The sample's settings, validated; {@code output} is empty when the counts are only printed. */
    public record Options(long records, int keys, int batches, Duration interval, String output) {
        public Options(long records, int keys, int batches, Duration interval) {
            this(records, keys, batches, interval, "");
        }

        public Options {
            if (records < 0 || keys < 1 || batches < 1 || interval.toMillis() < 1) {
                throw new IllegalArgumentException("need --records >= 0, --keys >= 1, --batches >= 1 and "
                        + "--interval-ms >= 1; got " + records + ", " + keys + ", " + batches + ", " + interval.toMillis());
            }
        }

        public static Options parse(String... args) {
            long records = 100_000;
            int keys = 10_000;
            int batches = 10;
            long intervalMs = 1000;
            String output = "";
            for (int i = 0; i < args.length; i++) {
                String name = args[i];
                if (i + 1 >= args.length) {
                    throw new IllegalArgumentException("option " + name + " needs a value");
                }
                String value = args[++i];
                if (name.equals("--records")) {
                    records = Long.parseLong(value);
                } else if (name.equals("--keys")) {
                    keys = Integer.parseInt(value);
                } else if (name.equals("--batches")) {
                    batches = Integer.parseInt(value);
                } else if (name.equals("--interval-ms")) {
                    intervalMs = Long.parseLong(value);
                } else if (name.equals("--output")) {
                    output = value;
                } else {
                    throw new IllegalArgumentException("unknown option " + name
                            + "; known: --records, --keys, --batches, --interval-ms, --output");
                }
            }
            return new Options(records, keys, batches, Duration.ofMillis(intervalMs), output);
        }
    }

    public static void main(String[] args) throws Exception {
        Options options = Options.parse(args);
        StreamingContext ssc = StreamingContext.builder()
                .appName("sluice-word-count")
                .batchInterval(options.interval())
                .build();
        CountDownLatch done = new CountDownLatch(options.batches());
        ssc.addStreamingListener(new StreamingListener() {
            @Override
            public void onBatchCompleted(BatchCompleted event) {
                System.out.println(progressLine(event.batchInfo()));
                done.countDown();
            }
        });
        PairDStream<String, Integer> counts = topWords(ssc.generatorStream(options.records(), options.keys(), 0), 5,
                System.out::println);
        if (!options.output().isEmpty()) {
            counts.saveAsTextFiles(options.output() + "/counts", "txt");
        }
        ssc.start();
        try {
            // Waits for the batches; awaitTerminationOrTimeout rethrows a failed batch's error at once.
            while (!done.await(200, TimeUnit.MILLISECONDS)) {
                ssc.awaitTerminationOrTimeout(Duration.ZERO);
            }
        } finally {
            ssc.stop(true, true);
        }
    }

    /**
     * The word count itself: lines → words → (word, 1) → counts per batch, reporting each batch's top {@code n};
     * returns the counts.
     */
    public static PairDStream<String, Integer> topWords(DStream<String> lines, int n, Consumer<String> out) {
        PairDStream<String, Integer> counts = lines
                .flatMap(line -> Arrays.asList(line.split(" ")).iterator())
                .mapToPair(word -> new Tuple2<>(word, 1))
                .reduceByKey(Integer::sum);
        // The foreachRDD function runs on the driver: it need not be serializable, so it may capture `out`.
        counts.foreachRDD((rdd, time) -> out.accept("batch " + Instant.ofEpochMilli(time.milliseconds())
                + " top words: " + format(rdd.takeOrdered(n, new ByCountThenWord()))));
        return counts;
    }

    static String format(List<Tuple2<String, Integer>> top) {
        return top.isEmpty() ? "(none)"
                : top.stream().map(t -> t._1() + "=" + t._2()).collect(Collectors.joining(", "));
    }

    /** One line per batch: its time, records, processing and scheduling delay, as the listener reports them. */
    public static String progressLine(BatchInfo info) {
        return String.format("batch %s: %d records, processing %d ms, scheduling delay %d ms%s",
                Instant.ofEpochMilli(info.batchTime().milliseconds()), info.numRecords(), info.processingDelay(),
                info.schedulingDelay(), info.failed() ? " (FAILED)" : "");
    }

    /** Highest count first, then by word so that ties print deterministically. Shipped to tasks: serializable. */
    static final class ByCountThenWord implements Comparator<Tuple2<String, Integer>>, Serializable {
        private static final long serialVersionUID = 1L;

        @Override
        public int compare(Tuple2<String, Integer> a, Tuple2<String, Integer> b) {
            int byCount = Integer.compare(b._2(), a._2());
            return byCount != 0 ? byCount : a._1().compareTo(b._1());
        }
    }
}
