package io.sluice.dstream.source.internal;

import io.sluice.dstream.receiver.Receiver;
import io.sluice.dstream.scheduler.StreamingListener;
import io.sluice.dstream.source.InputSource;
import io.sluice.dstream.source.SourceContext;
import io.sluice.dstream.source.internal.file.FileSource;
import io.sluice.dstream.source.internal.file.HadoopFiles;
import io.sluice.dstream.source.internal.file.TextFiles;
import io.sluice.dstream.source.internal.receiver.RawSocketReceiver;
import io.sluice.dstream.source.internal.receiver.ReceiverSource;
import io.sluice.dstream.source.internal.receiver.ReceiverTracker;
import io.sluice.dstream.source.internal.receiver.SocketReceiver;
import io.sluice.dstream.source.internal.replay.BatchDirectoriesSource;
import io.sluice.dstream.source.internal.replay.TimestampColumn;
import io.sluice.dstream.source.internal.replay.TimestampedTextSource;
import java.io.InputStream;
import java.time.Duration;
import java.util.Queue;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.InputFormat;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.function.Function;
import org.apache.spark.storage.StorageLevel;
import scala.Tuple2;

/**
 * The one place a context makes its built-in sources: every factory method of {@code StreamingContext} and
 * {@code Replay} calls one of these, which return the public {@link InputSource} the context runs like a user's
 * own. One per context, because the receiver sources share a {@link ReceiverTracker}: the first of them to start
 * makes it, from the source settings and the checkpoint directory the context has then. The engine controls
 * receivers only through {@link InputSource#receiving()}.
 */
public final class Sources {
    private final JavaSparkContext sc;
    private final Consumer<StreamingListener.Event> listeners;
    private ReceiverTracker tracker;

    /** @param listeners posts an event to the context's listeners (receiver events) */
    public Sources(JavaSparkContext sc, Consumer<StreamingListener.Event> listeners) {
        this.sc = sc;
        this.listeners = listeners;
    }

    // ---- sources a batch reads when it runs -------------------------------------------------------------

    public <T> InputSource<T> queue(Queue<JavaRDD<T>> queue, boolean oneAtATime, JavaRDD<T> defaultRdd) {
        return new QueueSource<>(queue, oneAtATime, defaultRdd);
    }

    public InputSource<String> generator(long recordsPerBatch, int keys, long seed, int partitions) {
        return new GeneratorSource(recordsPerBatch, keys, seed, partitions);
    }

    public InputSource<String> rate(long recordsPerSecond, int keys, long seed, int partitions) {
        return new RateSource(recordsPerSecond, keys, seed, partitions);
    }

    public InputSource<String> textFiles(String directory) {
        return new FileSource<>("textFileStream", directory, null, true, s -> new TextFiles(sc, s));
    }

    /** {@code conf} null: the SparkContext's configuration. */
    public <K, V, F extends InputFormat<K, V>> InputSource<Tuple2<K, V>> files(String directory, Class<K> keyClass,
            Class<V> valueClass, Class<F> formatClass, Function<Path, Boolean> filter, boolean newFilesOnly,
            Configuration conf) {
        return new FileSource<>("fileStream", directory, filter, newFilesOnly,
                s -> new HadoopFiles<>(sc, keyClass, valueClass, formatClass, conf));
    }

    public static InputSource<String> replayTextFiles(String path, Function<String, Long> timestamp,
            Duration interval, Duration lateness) {
        return new TimestampedTextSource(path, timestamp, interval, lateness);
    }

    public static InputSource<String> replayBatchDirectories(String root, Duration interval) {
        return new BatchDirectoriesSource(root, interval);
    }

    /** Field {@code index} of a line split at {@code separator}, read as a timestamp in {@code format}. */
    public static Function<String, Long> timestampColumn(int index, String separator, String format) {
        return new TimestampColumn(index, separator, format);
    }

    // ---- receivers: run by this context's tracker ------------------------------------------------------

    /** A source of what the user's {@code receiver} stores. */
    public <T> InputSource<T> receiver(Receiver<T> receiver) {
        return ReceiverSource.of(receiver, "", this::tracker);
    }

    /** Lines of UTF-8 text from a TCP server, stored packed. */
    public InputSource<String> socketLines(String host, int port, StorageLevel level) {
        SocketReceiver.checkPort(port);
        return ReceiverSource.lines(s -> SocketReceiver.lines(host, port, level, s.maxLineLength(), s.badRecords(),
                (int) s.connectTimeout().toMillis()), host + ":" + port, this::tracker);
    }

    /** Records {@code converter} makes of a TCP server's byte stream. */
    public <T> InputSource<T> socket(String host, int port, Function<InputStream, Iterable<T>> converter,
            StorageLevel level) {
        SocketReceiver.checkPort(port);
        return ReceiverSource.madeAtStart(s -> SocketReceiver.converting(host, port, converter, level,
                (int) s.connectTimeout().toMillis()), host + ":" + port, this::tracker);
    }

    /** The records in the serialized frames a TCP server sends ({@code rawSocketStream}). */
    public <T> InputSource<T> rawSocket(String host, int port, StorageLevel level) {
        SocketReceiver.checkPort(port);
        return ReceiverSource.serialized(s -> new RawSocketReceiver(host, port, level,
                (int) s.connectTimeout().toMillis()), host + ":" + port, this::tracker);
    }

    /** The context's tracker: made by the first receiver source that starts, from what {@code context} has. */
    private synchronized ReceiverTracker tracker(SourceContext context) {
        if (tracker == null) {
            tracker = new ReceiverTracker(context.sparkContext(), listeners, context.clock(),
                    SourceSettings.from(context), context.checkpointDirectory().orElse(null));
        }
        return tracker;
    }
}
