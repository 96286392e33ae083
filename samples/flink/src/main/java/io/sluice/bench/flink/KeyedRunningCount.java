package io.sluice.bench.flink;

import java.nio.file.Path;
import java.util.Map;
import java.util.UUID;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.apache.flink.util.Collector;

/**
 * W2's pipeline on Flink: the records of {@link W2Records} (a parallel sequence mapped to (batch, word)) → key by
 * the word → the running count per key in keyed {@code ValueState<Long>}, emitting (batch, new count) per record →
 * {@link TallySink}. Parallelism 2 on a MiniCluster in this JVM (one task manager with 2 slots, every address on
 * 127.0.0.1) that runs every job of this object one after the other, as a long-lived cluster would; no checkpoints,
 * Flink's defaults otherwise. Close it to stop the cluster (it waits until the cluster has stopped).
 */
final class KeyedRunningCount implements AutoCloseable {
    static final int PARALLELISM = 2;

    private final StateBackend backend;
    private final Configuration settings;
    private final MiniCluster cluster;

    /**
     * One run's figures: the processing time (first source subtask start to last sink end of input), the job's net
     * runtime as Flink reports it (deployment included), the output to compare, and the class of the keyed state
     * (which backend held it).
     */
    record Run(long records, long processingNanos, long netRuntimeMs, String check, String stateClass) {
        double recordsPerSecond() {
            return records / (processingNanos / 1e9);
        }
    }

    /** Starts the cluster, with {@code backend} for keyed state and Flink's temporary files under {@code workDir}. */
    KeyedRunningCount(StateBackend backend, Path workDir) throws Exception {
        this.backend = backend;
        this.settings = settings(backend, workDir);
        this.cluster = new MiniCluster(new MiniClusterConfiguration.Builder().setConfiguration(settings)
                .setNumTaskManagers(1).setNumSlotsPerTaskManager(PARALLELISM).build());
        cluster.start();
    }

    /** Runs the job once over {@code input}, from empty state. */
    Run run(W2Records input) throws Exception {
        String run = UUID.randomUUID().toString();
        Tally.open(run, input.batches());
        try {
            StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(settings);
            env.setParallelism(PARALLELISM);
            env.fromSequence(0, input.total() - 1)
                    .map(new ToRecord(input, run)).returns(Types.TUPLE(Types.INT, Types.STRING))
                    .keyBy(record -> record.f1, Types.STRING)
                    .process(new Count(run)).returns(Types.TUPLE(Types.INT, Types.LONG))
                    .sinkTo(new TallySink(run, input.batches()));
            StreamGraph graph = env.getStreamGraph();
            graph.setJobName("W2 keyed running count, " + backend + " state");
            JobExecutionResult result = cluster.executeJobBlocking(graph.getJobGraph());
            Tally tally = Tally.of(run);
            if (tally.flushedWriters() != PARALLELISM) {
                throw new IllegalStateException("Flink " + backend + ": " + tally.flushedWriters() + " of " + PARALLELISM
                        + " sink subtasks reached the end of input");
            }
            return new Run(input.total(), tally.processingNanos(), result.getNetRuntime(), tally.check(),
                    tally.stateClasses());
        } finally {
            Tally.close(run);
        }
    }

    @Override
    public void close() throws Exception {
        cluster.closeAsync().get();
    }

    /** Loopback only: the MiniCluster's RPC, blob server and REST endpoint bind to 127.0.0.1. */
    private static Configuration settings(StateBackend backend, Path workDir) {
        return Configuration.fromMap(Map.of(
                "state.backend.type", backend.settingValue(),
                "io.tmp.dirs", workDir.toString(),
                "state.backend.rocksdb.localdir", workDir.resolve("rocksdb").toString(),
                "jobmanager.rpc.address", "127.0.0.1",
                "jobmanager.bind-host", "127.0.0.1",
                "taskmanager.host", "127.0.0.1",
                "taskmanager.bind-host", "127.0.0.1",
                "rest.address", "127.0.0.1",
                "rest.bind-address", "127.0.0.1"));
    }

    /** Position in the input → (batch, word); notes when its subtask starts, for the processing time. */
    private static final class ToRecord extends RichMapFunction<Long, Tuple2<Integer, String>> {
        private final W2Records input;
        private final String run;

        ToRecord(W2Records input, String run) {
            this.input = input;
            this.run = run;
        }

        @Override
        public void open(OpenContext context) {
            Tally.of(run).sourceOpened(System.nanoTime());
        }

        @Override
        public Tuple2<Integer, String> map(Long position) {
            return input.at(position);
        }
    }

    /** The running count: state + 1 per record, emitted with the record's batch. */
    private static final class Count extends KeyedProcessFunction<String, Tuple2<Integer, String>, Tuple2<Integer, Long>> {
        private final String run;
        private transient ValueState<Long> count;

        Count(String run) {
            this.run = run;
        }

        @Override
        public void open(OpenContext context) {
            count = getRuntimeContext().getState(new ValueStateDescriptor<>("count", Types.LONG));
            Tally.of(run).stateOpened(count.getClass().getSimpleName());
        }

        @Override
        public void processElement(Tuple2<Integer, String> record, Context context, Collector<Tuple2<Integer, Long>> out)
                throws Exception {
            Long previous = count.value();
            long updated = (previous == null ? 0L : previous) + 1;
            count.update(updated);
            out.collect(Tuple2.of(record.f0, updated));
        }
    }
}
