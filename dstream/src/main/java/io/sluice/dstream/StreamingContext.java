package io.sluice.dstream;

import io.sluice.rdd.Time;
import io.sluice.dstream.source.InputSource;
import io.sluice.dstream.internal.SourceOperator;
import io.sluice.dstream.internal.Durations;
import io.sluice.dstream.internal.DerivedOperator;
import io.sluice.dstream.internal.Rdds;
import io.sluice.dstream.internal.context.ContextLifecycle;
import io.sluice.dstream.internal.context.ContextSettings;
import io.sluice.dstream.internal.scheduler.ListenerBus;
import io.sluice.dstream.source.internal.Sources;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.InputFormat;
import io.sluice.dstream.receiver.Receiver;
import java.io.InputStream;
import org.apache.spark.storage.StorageLevel;
import io.sluice.dstream.internal.GraphDescription;
import io.sluice.dstream.scheduler.BatchInfo;
import io.sluice.dstream.scheduler.StreamingListener;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Queue;
import java.util.stream.Stream;
import scala.Tuple2;
import org.apache.spark.api.java.function.Function;
import org.apache.spark.api.java.function.Function0;
import org.apache.spark.api.java.function.Function2;
import org.apache.spark.api.java.JavaPairRDD;
import java.util.ArrayList;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.SparkConf;

/**
 * The entry point of a streaming application: creates input streams, runs batches every batch interval, and
 * stops. Mirrors Spark Streaming's {@code JavaStreamingContext}; intervals are {@link Duration}s.
 *
 * <pre>{@code
 * StreamingContext ssc = StreamingContext.builder().appName("words").batchInterval(Duration.ofSeconds(1)).build();
 * ssc.socketTextStream("127.0.0.1", 9999).flatMap(...).mapToPair(...).reduceByKey(Integer::sum).print();
 * ssc.start();
 * ssc.awaitTermination();
 * }</pre>
 */
public final class StreamingContext {
    private final JavaSparkContext sc;
    private final boolean ownsSparkContext;
    private final Duration batchInterval;
    private final Clock clock;
    final GraphDescription description;
    private final ListenerBus listeners;
    private volatile String checkpointDirectory;
    final ContextSettings settings;
    private final Sources sources;
    final ContextLifecycle lifecycle;

    StreamingContext(JavaSparkContext sc, boolean ownsSparkContext, Duration batchInterval, Clock clock) {
        this.sc = sc;
        this.ownsSparkContext = ownsSparkContext;
        this.batchInterval = Durations.requirePositiveMillis(batchInterval, "the batch interval");
        this.clock = clock;
        this.description = new GraphDescription(batchInterval);
        this.listeners = new ListenerBus(sc.appName());
        this.settings = new ContextSettings(sc, batchInterval);
        this.sources = new Sources(sc, listeners::post);
        this.lifecycle = new ContextLifecycle(this, description, listeners, settings);
    }

    public static StreamingContextBuilder builder() {
        return new StreamingContextBuilder();
    }

    /**
     * The equivalent of {@code new JavaStreamingContext(sparkConf, batchInterval)}: a SparkContext from {@code
     * sparkConf} with Sluice's defaults ({@code local[*]} unless a master is set), or the running one adopted, as
     * {@link #builder()} does.
     */
    public static StreamingContext create(SparkConf sparkConf, Duration batchInterval) {
        return builder().conf(sparkConf).batchInterval(batchInterval).build();
    }

    /** Adopts a running SparkContext (a notebook's, or the one spark-submit made); its settings stay as they are. */
    public static StreamingContext create(JavaSparkContext sc, Duration batchInterval) {
        return new StreamingContext(sc, false, batchInterval, Clock.system());
    }

    /** As {@link #create(JavaSparkContext, Duration)}, with the given clock (a test kit's ManualClock in tests). */
    public static StreamingContext create(JavaSparkContext sc, Duration batchInterval, Clock clock) {
        return new StreamingContext(sc, false, batchInterval, clock);
    }

    // ---- input streams -------------------------------------------------------------------------------

    /** Each batch takes one RDD from the queue; an empty queue gives an empty batch. */
    public <T> DStream<T> queueStream(Queue<JavaRDD<T>> queue) {
        return queueStream(queue, true);
    }

    public <T> DStream<T> queueStream(Queue<JavaRDD<T>> queue, boolean oneAtATime) {
        return fromSource("queueStream", sources.queue(queue, oneAtATime, null));
    }

    /** As {@link #queueStream(Queue, boolean)}; an empty queue gives {@code defaultRDD}. */
    public <T> DStream<T> queueStream(Queue<JavaRDD<T>> queue, boolean oneAtATime, JavaRDD<T> defaultRDD) {
        return fromSource("queueStream", sources.queue(queue, oneAtATime, defaultRDD));
    }

    /**
     * A replayable stream of words "w0".."w{keys-1}": the batch at a given time always holds the same
     * {@code recordsPerBatch} records, spread over the default parallelism's partitions.
     */
    public DStream<String> generatorStream(long recordsPerBatch, int keys, long seed) {
        return generatorStream(recordsPerBatch, keys, seed, sc.defaultParallelism());
    }

    public DStream<String> generatorStream(long recordsPerBatch, int keys, long seed, int partitions) {
        return fromSource("generatorStream", sources.generator(recordsPerBatch, keys, seed, partitions));
    }

    /** Lines of UTF-8 text from a TCP server, stored at {@code MEMORY_AND_DISK_SER_2}; see {@link #socketStream}. */
    public DStream<String> socketTextStream(String host, int port) {
        return socketTextStream(host, port, StorageLevel.MEMORY_AND_DISK_SER_2());
    }

    /**
     * Lines of UTF-8 text from a TCP server, received by a receiver on an executor. When the server goes away
     * the receiver reconnects with backoff, reporting each reconnect as a receiver event. Lines that are not
     * UTF-8, longer than {@code sluice.input.maxLineLength} (1 MiB), or cut off by the server closing mid-line are
     * kept repaired as Spark Streaming reads them (U+FFFD for malformed bytes) and counted in the batch's repaired
     * records ({@code sluice.input.badRecords}=replace, the default); {@code skip} drops and counts them,
     * {@code fail} fails the batch naming the source and the line.
     */
    public DStream<String> socketTextStream(String host, int port, StorageLevel storageLevel) {
        return fromSource("socketTextStream", sources.socketLines(host, port, storageLevel));
    }

    /**
     * Records a converter makes of a TCP server's byte stream; as {@link #socketTextStream(String, int,
     * StorageLevel)}. A record the converter's iterator throws on is a bad record.
     */
    public <T> DStream<T> socketStream(String host, int port, Function<InputStream, Iterable<T>> converter,
            StorageLevel storageLevel) {
        return fromSource("socketStream", sources.socket(host, port, converter, storageLevel));
    }

    /** As {@link #rawSocketStream(String, int, StorageLevel)}, stored at {@code MEMORY_AND_DISK_SER_2}. */
    public <T> DStream<T> rawSocketStream(String host, int port) {
        return rawSocketStream(host, port, StorageLevel.MEMORY_AND_DISK_SER_2());
    }

    /**
     * Records a TCP server sends already serialized, in Spark Streaming's raw framing: each frame a 4-byte
     * big-endian length, then a serialization stream of records written with the context's serializer ({@code
     * spark.serializer}, Kryo by default; the sender must use the same). The receiver stores each frame without
     * deserializing it; the batch's tasks read the records. As in Spark Streaming, such blocks report no record
     * count (the batch's {@code numRecords} leaves them out). The receiver reconnects with backoff as {@link
     * #socketTextStream} does.
     */
    public <T> DStream<T> rawSocketStream(String host, int port, StorageLevel storageLevel) {
        return fromSource("rawSocketStream", sources.<T>rawSocket(host, port, storageLevel));
    }

    /**
     * Lines of the text files that appear in {@code directory} (any Hadoop file system path, globs allowed),
     * each file read once, also across driver restarts (the files taken are saved in the checkpoint). Only files
     * newer than the start are read, each in the batch in which it appears (the first at or after its modification
     * time), as Spark Streaming reads them: move or rename complete files into the directory. For files written in
     * place, {@code sluice.input.fileStream.minFileAge} waits until a file has stopped changing; names of files in
     * progress (hidden, {@code _COPYING_}, {@code .tmp}) are ignored. Lines are UTF-8 of at most {@code
     * sluice.input.maxLineLength} bytes: by default ({@code sluice.input.badRecords}=replace) other lines
     * are kept repaired (U+FFFD, as Spark Streaming reads them; a long line cut) and counted; {@code skip} drops
     * and counts them, {@code fail} fails the batch. A file that disappears before it is read is skipped, or
     * under {@code fail} fails the batch.
     */
    public DStream<String> textFileStream(String directory) {
        return fromSource("textFileStream", sources.textFiles(directory));
    }

    /** Files that appear in {@code directory}, read with a Hadoop input format; only new files, no filter. */
    public <K, V, F extends InputFormat<K, V>> PairDStream<K, V> fileStream(String directory, Class<K> keyClass,
            Class<V> valueClass, Class<F> formatClass) {
        return fileStream(directory, keyClass, valueClass, formatClass, null, true, null);
    }

    public <K, V, F extends InputFormat<K, V>> PairDStream<K, V> fileStream(String directory, Class<K> keyClass,
            Class<V> valueClass, Class<F> formatClass, Function<Path, Boolean> filter, boolean newFilesOnly) {
        return fileStream(directory, keyClass, valueClass, formatClass, filter, newFilesOnly, null);
    }

    /**
     * As {@link #textFileStream}, with a Hadoop input format, a path filter (null: every file), and whether
     * files already there at the start are read ({@code newFilesOnly} false) or ignored; {@code conf} (null: the
     * SparkContext's) configures the file system and the format.
     */
    public <K, V, F extends InputFormat<K, V>> PairDStream<K, V> fileStream(String directory, Class<K> keyClass,
            Class<V> valueClass, Class<F> formatClass, Function<Path, Boolean> filter, boolean newFilesOnly,
            Configuration conf) {
        DStream<Tuple2<K, V>> files = fromSource("fileStream", sources.files(directory, keyClass, valueClass,
                formatClass, filter, newFilesOnly, conf));
        return new PairDStream<>(this, files.node());
    }

    /** A stream of what a user-defined {@link Receiver} stores, run on an executor. */
    public <T> DStream<T> receiverStream(Receiver<T> receiver) {
        return fromSource("receiverStream", sources.receiver(receiver));
    }

    /**
     * Words {@code "w0".."w{keys-1}"} at {@code recordsPerSecond}: every batch holds rate × batch interval
     * records. With backpressure on, the rate follows the rate controller, never above {@code recordsPerSecond}.
     */
    public DStream<String> rateStream(long recordsPerSecond, int keys, long seed) {
        return fromSource("rateStream", sources.rate(recordsPerSecond, keys, seed, sc.defaultParallelism()));
    }

    /**
     * A stream whose batches a user-written {@link InputSource} computes (Spark Streaming's custom
     * {@code InputDStream}): e.g. a replayable reader of a log that saves its position in the checkpoint. The
     * stream's kind, in its call site and its default checkpoint id, is the source's class name ({@code
     * offsetSource} for a class {@code OffsetSource}).
     */
    public <T> DStream<T> inputStream(InputSource<T> source) {
        String name = source.getClass().getSimpleName();
        String kind = name.isEmpty() ? "inputStream" : Character.toLowerCase(name.charAt(0)) + name.substring(1);
        return fromSource(kind, source);
    }

    /** Every input stream, built-in or the user's, is an {@link InputSource} run by a {@link SourceOperator}. */
    <T> DStream<T> fromSource(String kind, InputSource<T> source) {
        lifecycle.replaying(source);
        return new DStream<>(this, SourceOperator.node(description, kind, source,
                new SourceOperator.Environment(clock, this::setting, listeners::add)));
    }

    /**
     * Sets a Sluice (or Spark Streaming) setting for this context only, over the SparkContext's configuration:
     * for a context on an adopted SparkContext, whose settings are fixed. Any setting may be set until
     * {@link #start()}: the sources read theirs when the context starts them.
     */
    public StreamingContext conf(String key, String value) {
        description.ensureNotStarted("conf(" + key + ")");
        settings.put(key, value);
        return this;
    }

    /** A setting of this context: its own (see {@link #conf(String, String)}), else the SparkContext's, else null. */
    public String setting(String key) {
        return settings.get(key);
    }

    @SafeVarargs
    public final <T> DStream<T> union(DStream<T> first, DStream<T>... rest) {
        return union(Stream.concat(Stream.of(first), Stream.of(rest)).toList());
    }

    public <T> DStream<T> union(List<DStream<T>> streams) {
        return new DStream<>(this, DStreamLike.unionOf(this, streams));
    }

    @SafeVarargs
    public final <K, V> PairDStream<K, V> union(PairDStream<K, V> first, PairDStream<K, V>... rest) {
        return new PairDStream<>(this, DStreamLike.unionOf(this,
                Stream.concat(Stream.of(first), Stream.of(rest)).toList()));
    }

    /**
     * A stream whose RDD at each batch is {@code transformFunc} of the given streams' RDDs of that batch, in the
     * order given (Spark Streaming's {@code JavaStreamingContext.transform}). A pair stream's RDD comes as a
     * {@code JavaRDD} of tuples ({@code JavaPairRDD.fromJavaRDD} makes it a pair RDD again). The function runs on
     * the driver; all streams must have the same slide.
     */
    public <T> DStream<T> transform(List<? extends DStreamLike<?, ?>> dstreams,
            Function2<List<JavaRDD<?>>, Time, JavaRDD<T>> transformFunc) {
        return new DStream<>(this, transformOf("transform", dstreams, transformFunc));
    }

    /** As {@link #transform(List, Function2)}, for a function that returns a pair RDD. */
    public <K, V> PairDStream<K, V> transformToPair(List<? extends DStreamLike<?, ?>> dstreams,
            Function2<List<JavaRDD<?>>, Time, JavaPairRDD<K, V>> transformFunc) {
        return new PairDStream<>(this, transformOf("transformToPair", dstreams,
                (rdds, time) -> Rdds.tuples(transformFunc.call(rdds, time))));
    }

    /** The function runs on the driver and no checkpoint stores it, so it is not checked for serializability. */
    private <T> io.sluice.dstream.internal.Node<T> transformOf(String kind, List<? extends DStreamLike<?, ?>> dstreams,
            Function2<List<JavaRDD<?>>, Time, JavaRDD<T>> function) {
        if (dstreams.isEmpty()) {
            throw new IllegalArgumentException(kind + " needs at least one stream");
        }
        List<io.sluice.dstream.internal.Node<?>> parents = new ArrayList<>();
        for (DStreamLike<?, ?> stream : dstreams) {
            if (stream.context != this) {
                throw new IllegalArgumentException(kind + " was given a stream of another StreamingContext");
            }
            parents.add(stream.node());
        }
        return DerivedOperator.node(description, kind, parents, List.of(),
                (rdds, time, fns) -> function.call(List.copyOf(rdds), time));
    }

    // ---- recovery: getOrCreate (see internal/recovery and the recovery module) ------------------------

    /**
     * The context the application's {@code factory} builds, continuing from the newest usable checkpoint in
     * {@code checkpointDirectory} if there is one. Unlike Spark Streaming, the factory runs on every start, so
     * the application's code may change between runs: saved progress, source positions and state attach to
     * the new graph's operators by their ids ({@code name("...")}, else their position in the graph). Starting
     * fails, listing them, if saved state matches no operator (unless {@value Settings#ALLOW_DROPPING_STATE} is
     * set).
     *
     * <p>While the factory starts Spark, the state of a checkpoint in a local directory is decoded on background
     * threads, for a local-mode context to restore without reading it again; start or stop the context it
     * returns, which releases what was not used.
     */
    public static StreamingContext getOrCreate(String checkpointDirectory, Function0<StreamingContext> factory) {
        return GetOrCreate.getOrCreate(checkpointDirectory, null, factory);
    }

    /**
     * As {@link #getOrCreate(String, Function0)}, telling the factory whether this start restores a checkpoint
     * ({@code true}) or starts afresh: code written for Spark Streaming's factory, which runs on a fresh start
     * only, keeps its fresh-start side effects (deleting old output, "Creating new context") under {@code if
     * (!restoring)}. The directory is read before the factory runs, with the classpath's Hadoop configuration.
     */
    public static StreamingContext getOrCreate(String checkpointDirectory,
            Function<Boolean, StreamingContext> factory) {
        return GetOrCreate.telling(checkpointDirectory, factory);
    }

    /**
     * As {@link #getOrCreate(String, Function0)}, reading the checkpoint with {@code hadoopConf} (Spark Streaming's
     * form): what it sets beyond the classpath's Hadoop defaults (a file system's credentials, {@code
     * fs.defaultFS}) is set on the SparkContext's Hadoop configuration before the checkpoint is read, because
     * Sluice also writes the next checkpoints with it.
     */
    public static StreamingContext getOrCreate(String checkpointDirectory, Function0<StreamingContext> factory,
            Configuration hadoopConf) {
        return getOrCreate(checkpointDirectory, factory, hadoopConf, false);
    }

    /**
     * As {@link #getOrCreate(String, Function0, Configuration)}; with {@code createOnError}, a checkpoint directory
     * that cannot be read (no usable checkpoint among its files, an unreachable file system) starts the context
     * afresh with a warning instead of failing, as Spark Streaming's {@code createOnError} does.
     */
    public static StreamingContext getOrCreate(String checkpointDirectory, Function0<StreamingContext> factory,
            Configuration hadoopConf, boolean createOnError) {
        return GetOrCreate.getOrCreate(checkpointDirectory, factory, hadoopConf, createOnError);
    }

    /** As {@link #getOrCreate(String, Function0)}, on a running SparkContext that the factory builds on. */
    public static StreamingContext getOrCreate(String checkpointDirectory, JavaSparkContext sc,
            Function<JavaSparkContext, StreamingContext> factory) {
        return GetOrCreate.getOrCreate(checkpointDirectory, sc, factory);
    }

    /** The batch whose checkpoint this context continues from, or empty when it started afresh. */
    public java.util.Optional<Time> recoveredBatch() {
        return lifecycle.recoveredBatch();
    }

    /**
     * Runs the next {@code n} batches, returning their reports once the last completed (notebooks, shells): starts
     * the context if needed, stepped: no batch runs between calls (on the wall clock, a batch whose time passed
     * meanwhile runs at once). On a replay clock fewer come back once the recording ended and the context stopped.
     */
    public List<BatchInfo> runBatches(int n) throws InterruptedException {
        return lifecycle.runBatches(n, checkpointDirectory);
    }

    /** The newest batch that completed, if any: e.g. to read a stream's RDD of it with {@code compute(time)}. */
    public Optional<Time> lastCompletedBatch() {
        return lifecycle.lastCompletedBatch();
    }

    /** Validates the whole graph, then starts generating batches; the first is at the next interval boundary. */
    public void start() {
        lifecycle.start(checkpointDirectory);
    }

    /** Stops immediately, and the SparkContext too (as Spark Streaming's {@code stop()} does). */
    public void stop() {
        stop(true, false);
    }

    public void stop(boolean stopSparkContext) {
        stop(stopSparkContext, false);
    }

    /**
     * Stops the context. Gracefully: stop receiving, finish every batch already generated (up to {@value
     * Settings#GRACEFUL_STOP_TIMEOUT}), then stop; otherwise running jobs are cancelled.
     */
    public void stop(boolean stopSparkContext, boolean gracefully) {
        lifecycle.stop(stopSparkContext, gracefully);
    }

    /** Blocks until the context stops; throws if a batch failed (as Spark Streaming does). */
    public void awaitTermination() throws InterruptedException {
        lifecycle.awaitTermination(null);
    }

    /** As {@link #awaitTermination()}, but gives up after {@code timeout}; returns whether it stopped. */
    public boolean awaitTerminationOrTimeout(Duration timeout) throws InterruptedException {
        return lifecycle.awaitTermination(timeout);
    }

    /** As {@link #awaitTerminationOrTimeout(Duration)}, in milliseconds (Spark Streaming's form). */
    public boolean awaitTerminationOrTimeout(long timeoutMillis) throws InterruptedException {
        return awaitTerminationOrTimeout(Duration.ofMillis(timeoutMillis));
    }

    /**
     * Changes the number of state partitions of the running stream mapWithState or updateStateByKey returned: its
     * next batch moves whole key groups; outputs and state stay as without it (decisions/0013-elastic-state.md).
     */
    public void repartitionState(DStreamLike<?, ?> stream, int numPartitions) {
        lifecycle.repartitionState(stream.node(), numPartitions);
    }

    // ---- settings and accessors ----------------------------------------------------------------------

    /**
     * Where checkpoints go (a local path or any Hadoop file system URI). Without one, lineage is still cut
     * periodically, with Spark's local checkpointing.
     */
    public void checkpoint(String directory) {
        description.ensureNotStarted("checkpoint(directory)");
        // Spark's own RDD checkpoints (window lineage cuts) go to a subdirectory, apart from Sluice's files.
        sc.setCheckpointDir(new org.apache.hadoop.fs.Path(directory, "rdd").toString());
        checkpointDirectory = directory;
    }

    /** Keeps every stream's RDDs for at least {@code duration}, e.g. to query past batches with slice(). */
    public void remember(Duration duration) {
        description.remember(duration);
    }

    public void addStreamingListener(StreamingListener listener) {
        listeners.add(listener);
    }

    public void removeStreamingListener(StreamingListener listener) {
        listeners.remove(listener);
    }

    public JavaSparkContext sparkContext() {
        return sc;
    }

    public Duration batchInterval() {
        return batchInterval;
    }

    public Clock clock() {
        return clock;
    }

    public StreamingContextState getState() {
        return lifecycle.state();
    }

    /** What the context holds on to now (remembered RDDs, persisted RDDs, cached blocks): flat over a long run. */
    public Footprint footprint() {
        return lifecycle.footprint();
    }

    /** The checkpoint directory, or null when none was set. */
    public String checkpointDirectory() {
        return checkpointDirectory;
    }

    /** The Streaming page's address while the context runs; empty when Spark's UI is disabled. */
    public java.util.Optional<String> uiUrl() {
        return lifecycle.uiUrl();
    }

    /** Writes a self-contained HTML report of the batches recorded since start (the page's charts and tables). */
    public void writeReport(java.nio.file.Path file) throws java.io.IOException {
        lifecycle.writeReport(file);
    }

    /** Whether this context started the SparkContext itself (rather than adopting one). */
    public boolean ownsSparkContext() {
        return ownsSparkContext;
    }
}
