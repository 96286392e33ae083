package io.sluice.dstream;

import static io.sluice.dstream.SourcesTesting.WAIT;
import static io.sluice.dstream.SourcesTesting.receiverOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.dstream.scheduler.BatchInfo;
import io.sluice.dstream.testing.LineServer;
import io.sluice.testkit.Collected;
import io.sluice.testkit.StreamTester;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.spark.serializer.SerializationStream;
import org.apache.spark.serializer.Serializer;
import org.apache.spark.storage.StorageLevel;
import org.junit.jupiter.api.Test;
import scala.Tuple2;
import scala.reflect.ClassTag$;

/**
 * rawSocketStream against a server on 127.0.0.1 that sends Spark Streaming's raw framing: each frame a 4-byte
 * big-endian length, then records serialized with the context's serializer. The frames of a batch interval make
 * the next batch, in order; their records are read by the batch's tasks and (as in Spark Streaming) not counted.
 */
class RawSocketStreamTest {
    @Test
    void framesOfSerializedRecordsBecomeTheBatchesRecords() throws Exception {
        try (LineServer server = new LineServer(); StreamTester t = new StreamTester()) {
            DStream<Tuple2<String, Integer>> readings = t.context().rawSocketStream("127.0.0.1", server.port(),
                    StorageLevel.MEMORY_AND_DISK_SER());
            Collected<Tuple2<String, Integer>> out = t.collect(readings);
            Serializer serializer = t.context().sparkContext().sc().env().serializer();
            t.runBatches(0);
            LineServer.Connection c = server.accept();
            byte[] first = frame(serializer, new Tuple2<>("a", 1), new Tuple2<>("b", 2));
            byte[] second = frame(serializer, new Tuple2<>("c", 3));
            c.bytes(concat(first, second));
            byte[] third = frame(serializer, new Tuple2<>("d", 4));
            c.bytes(third);
            awaitStored(readings, first.length + second.length + third.length - 12);
            List<BatchInfo> batches = t.runBatches(2);
            BatchInfo batch = batches.get(0);
            assertEquals(List.of(List.of(new Tuple2<>("a", 1), new Tuple2<>("b", 2), new Tuple2<>("c", 3),
                    new Tuple2<>("d", 4)), List.of()), out.batches());
            assertEquals(0, batch.numRecords(), "raw blocks report no record count, as in Spark Streaming");
        }
    }

    /** One frame: the length, then a serialization stream of the records. */
    @SafeVarargs
    private static <T> byte[] frame(Serializer serializer, T... records) {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        SerializationStream stream = serializer.newInstance().serializeStream(body);
        for (T record : records) {
            stream.writeObject(record, ClassTag$.MODULE$.<T>apply(Object.class));
        }
        stream.close();
        return ByteBuffer.allocate(4 + body.size()).putInt(body.size()).put(body.toByteArray()).array();
    }

    private static byte[] concat(byte[] a, byte[] b) {
        return ByteBuffer.allocate(a.length + b.length).put(a).put(b).array();
    }

    /** Waits until the receiver stored at least {@code bytes} (a stored frame holds at least its body's bytes). */
    private static void awaitStored(DStream<?> stream, long bytes) throws InterruptedException {
        var receiver = receiverOf(stream);
        assertTrue(receiver.awaitBuffered(bytes, Long.MAX_VALUE, WAIT),
                receiver.source() + " stored " + receiver.bufferedBytes() + " bytes, not " + bytes);
    }
}
