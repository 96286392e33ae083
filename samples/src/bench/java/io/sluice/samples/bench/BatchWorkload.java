package io.sluice.samples.bench;

import io.sluice.dstream.DStream;
import java.util.List;
import java.util.Map;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.streaming.api.java.JavaDStream;

/**
 * A workload that is a pipeline over the standard input (a queue of pre-built RDDs, see {@link BenchRecords}),
 * measured by {@link StandardRun}: median processing time of the counted batches, from each side's listener.
 * The two pipeline methods must be literally the same pipeline, ending in the same cheap output operation;
 * record each batch's output with {@link BenchOutput#record} so the benchmark can check both sides agree.
 */
public interface BatchWorkload extends Workload {
    long recordsPerBatch();

    int keys();

    /** The input RDDs, one per batch: the standard input ({@link BenchRecords}) unless the workload has its own. */
    default List<JavaRDD<String>> input(JavaSparkContext sc, BenchSettings settings) {
        return BenchRecords.batches(sc, settings.batches(), settings.inputPartitions(), recordsPerBatch(), keys());
    }

    /** Whether both sides get a checkpoint directory (Spark Streaming requires one for state). */
    default boolean needsCheckpointDirectory() {
        return false;
    }

    /** Spark settings of this workload on both sides, over the common ones (e.g. another master); usually none. */
    default Map<String, String> sparkSettings() {
        return Map.of();
    }

    /** Runs on both sides after the pipeline is built, before the context starts (e.g. to wait for executors). */
    default void beforeStart(JavaSparkContext sc) throws Exception {
    }

    /** Runs on the driver once every batch completed, before the context stops (e.g. to read the final state). */
    default void afterBatches() throws Exception {
    }

    /** Builds the pipeline on Sluice, up to and including its output operation. */
    void sluice(DStream<String> input);

    /** Builds the same pipeline on Spark Streaming. */
    void sparkStreaming(JavaDStream<String> input);

    @Override
    default Measurement run(Side side, BenchSettings settings) throws Exception {
        return StandardRun.run(this, side, settings);
    }
}
