package io.sluice.bench.flink;

import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.api.java.tuple.Tuple2;

/**
 * The pipeline's cheap output, Flink's counterpart of Sluice's per-batch {@code count()}: counts the emitted
 * (batch, running count) records per input batch in plain fields and hands the totals to the run's {@link Tally}
 * at the end of input.
 */
final class TallySink implements Sink<Tuple2<Integer, Long>> {
    private final String run;
    private final int batches;

    TallySink(String run, int batches) {
        this.run = run;
        this.batches = batches;
    }

    @Override
    public SinkWriter<Tuple2<Integer, Long>> createWriter(WriterInitContext context) {
        return new Writer(run, new long[batches]);
    }

    private static final class Writer implements SinkWriter<Tuple2<Integer, Long>> {
        private final String run;
        private final long[] records;
        private long ones;
        private long sum;

        Writer(String run, long[] records) {
            this.run = run;
            this.records = records;
        }

        @Override
        public void write(Tuple2<Integer, Long> batchAndCount, Context context) {
            records[batchAndCount.f0]++;
            long count = batchAndCount.f1;
            sum += count;
            if (count == 1) {
                ones++;
            }
        }

        @Override
        public void flush(boolean endOfInput) {
            if (endOfInput) {
                Tally.of(run).writerFinished(records, ones, sum, System.nanoTime());
            }
        }

        @Override
        public void close() {
        }
    }
}
