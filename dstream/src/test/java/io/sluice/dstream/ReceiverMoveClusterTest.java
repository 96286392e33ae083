package io.sluice.dstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.dstream.internal.scaling.Autoscaler;
import io.sluice.dstream.internal.state.StatePlacement;
import io.sluice.dstream.receiver.Receiver;
import io.sluice.dstream.recovery.ClusterWordCountApp;
import io.sluice.dstream.testing.LocalCluster;
import io.sluice.dstream.testing.LogCapture;
import io.sluice.dstream.testing.ReceiverEvents;
import io.sluice.dstream.testing.StandaloneCluster;
import io.sluice.rdd.ExecutorLocation;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.apache.spark.SparkEnv;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;
import scala.Tuple2;

/**
 * The autoscaler removes an executor that runs a receiver by moving the receiver first, losing nothing: on a
 * standalone cluster (a Master and two Workers of three cores, separate JVMs), two receivers run, one on each
 * executor, and count records into state. The load is light, so the autoscaler goes from two executors to one:
 * the newer executor's receiver stores what it received, stops, starts on the other executor and goes on; only
 * then is the executor killed. The receivers take their records one at a time from a server in this test, each
 * stored before the next is asked for, so the server knows every record handed out and on which executor: the
 * final state must count each exactly once. Waits on batches and the server, never on time.
 */
class ReceiverMoveClusterTest {
    private static final int KEYS = 5;
    /** Records the moved receiver takes on its new executor before the server hands out no more. */
    private static final int AFTER_MOVE = 300;
    private static final long TIMEOUT_SECONDS = 150;

    /** Kept when the test fails: the cluster's logs, which the failure message quotes. */
    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    static Path dir;
    private static StandaloneCluster cluster;
    private static StreamingContext context;
    private static RecordServer server;

    @BeforeAll
    static void startCluster() throws Exception {
        cluster = StandaloneCluster.startForThisDriver(dir, 2, 3, "700m", 120);
        server = new RecordServer();
    }

    @AfterAll
    static void stopAll() throws Exception {
        try {
            if (context != null) {
                context.stop(true, false);
            }
        } finally {
            if (server != null) {
                server.close();
            }
            if (cluster != null) {
                cluster.close();
            }
        }
    }

    @Test
    void movesAReceiverOffTheExecutorItRemovesAndCountsEveryRecordOnce() throws Exception {
        context = LocalCluster.builder(cluster.masterUrl(), "-XX:+UseSerialGC -XX:TieredStopAtLevel=1")
                .appName("receiver-move").batchInterval(Duration.ofSeconds(1))
                .conf("spark.executor.cores", "3").conf("spark.cores.max", "6")
                .conf("spark.executor.instances", "2")
                .conf("sluice.receiver.maxRate", "200")
                .conf(Settings.DYNAMIC_ALLOCATION_ENABLED, "true")
                .conf(Settings.DYNAMIC_ALLOCATION_SCALING_INTERVAL, "4s")
                .conf(Settings.DYNAMIC_ALLOCATION_SCALING_DOWN_RATIO, "0.6")
                .conf(Settings.DYNAMIC_ALLOCATION_SCALING_UP_RATIO, "0.95")
                .conf(Settings.DYNAMIC_ALLOCATION_MIN_EXECUTORS, "1")
                .conf(Settings.DYNAMIC_ALLOCATION_MAX_EXECUTORS, "2")
                .build();
        assertEquals(cluster.masterUrl(), context.sparkContext().master(), "the context runs on the cluster");
        ClusterWordCountApp.awaitExecutors(context, 2);
        List<ExecutorLocation> executors = new ArrayList<>(ExecutorLocation.executors(context.sparkContext().sc()));
        executors.sort(StatePlacement.ORDER);
        ExecutorLocation older = executors.get(0);
        ExecutorLocation newer = executors.get(1); // the one the autoscaler removes

        DStream<String> a = context.receiverStream(new RecordReceiver("a", server.port(), older.toString()));
        DStream<String> b = context.receiverStream(new RecordReceiver("b", server.port(), newer.toString()));
        PairDStream<String, Long> counts = context.union(a, b).mapToPair(r -> new Tuple2<>(key(r), 1L))
                .updateStateByKey((List<Long> ones, org.apache.spark.api.java.Optional<Long> total) ->
                        org.apache.spark.api.java.Optional.of(total.orElse(0L) + ones.size()), 2);
        BlockingQueue<Map<String, Long>> states = new LinkedBlockingQueue<>();
        counts.foreachRDD(rdd -> {
            states.add(new TreeMap<>(rdd.collectAsMap()));
        });
        ReceiverEvents events = new ReceiverEvents();
        context.addStreamingListener(events);
        List<Integer> executorCounts = new CopyOnWriteArrayList<>();
        CountDownLatch shrunk = new CountDownLatch(1);
        context.addStreamingListener(new io.sluice.dstream.scheduler.StreamingListener() {
            @Override
            public void onBatchCompleted(BatchCompleted event) {
                int n = ExecutorLocation.executors(context.sparkContext().sc()).size();
                executorCounts.add(n);
                if (n == 1) {
                    shrunk.countDown();
                }
            }
        });
        LogCapture autoscalerWarnings = new LogCapture(Autoscaler.class);
        try {
            context.start();
            assertTrue(server.ended.await(TIMEOUT_SECONDS, TimeUnit.SECONDS), "receiver b did not move and take "
                    + AFTER_MOVE + " records on its new executor within " + TIMEOUT_SECONDS + " s; served "
                    + server.servedOn + "\n" + cluster.diagnostics());
            Map<String, Long> expected = server.handedOut();
            long total = expected.values().stream().mapToLong(Long::longValue).sum();
            Map<String, Long> state = awaitState(states, total);
            assertEquals(expected, state, "every record handed out counted once");
            assertTrue(shrunk.await(TIMEOUT_SECONDS, TimeUnit.SECONDS), "no batch ran on one executor");
        } finally {
            autoscalerWarnings.close();
            System.out.println("Receiver move: executors per batch " + executorCounts + "; records served "
                    + server.servedOn + "; receiver events " + events.all());
        }
        assertEquals(List.of(newer.executorId(), older.executorId()), server.executorsOf("b"),
                "b ran on the newer executor, then on the older");
        assertEquals(List.of(older.executorId()), server.executorsOf("a"), "a stayed where it was");
        assertTrue(events.count("moving") >= 1, "a receiver stopped to move: " + events.all());
        assertEquals(List.of(), autoscalerWarnings.warnings(), "no move given up, no scaling step failed");
    }

    private static String key(String record) {
        int dash = record.indexOf('-');
        return record.substring(0, dash) + Long.parseLong(record.substring(dash + 1)) % KEYS;
    }

    /** Takes batches' states until one counts {@code total} records (or more); fails after the timeout. */
    private static Map<String, Long> awaitState(BlockingQueue<Map<String, Long>> states, long total)
            throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_SECONDS);
        Map<String, Long> last = Map.of();
        while (last.values().stream().mapToLong(Long::longValue).sum() < total) {
            Map<String, Long> next = states.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (next == null) {
                throw new AssertionError("the state never counted the " + total + " records handed out; last "
                        + last);
            }
            last = next;
        }
        return last;
    }

    /**
     * Takes records one at a time from the test's {@link RecordServer}, storing each before asking for the next;
     * {@link #onStop()} waits for its thread, so every record it was handed is stored. Runs where the test pins it.
     */
    static final class RecordReceiver extends Receiver<String> {
        private static final long serialVersionUID = 1L;
        private final String stream;
        private final int port;
        private final String location;
        private transient volatile boolean stopping;
        private transient volatile Thread thread;

        RecordReceiver(String stream, int port, String location) {
            super(); // two copies (Spark Streaming's default): blocks stored on the removed executor have a replica
            this.stream = stream;
            this.port = port;
            this.location = location;
        }

        @Override
        public Optional<String> preferredLocation() {
            return Optional.of(location);
        }

        @Override
        public void onStart() {
            stopping = false;
            thread = new Thread(this::receive, "record-receiver-" + stream);
            thread.setDaemon(true);
            thread.start();
        }

        private void receive() {
            String executor = SparkEnv.get().executorId();
            try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port);
                    BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(),
                            StandardCharsets.UTF_8));
                    PrintWriter out = new PrintWriter(socket.getOutputStream(), true, StandardCharsets.UTF_8)) {
                while (!stopping) {
                    out.println(stream + " " + executor);
                    String record = in.readLine();
                    if (record == null || record.equals("end")) {
                        return;
                    }
                    store(record);
                }
            } catch (IOException e) {
                if (!stopping) {
                    restart("record server: " + e.getMessage());
                }
            }
        }

        @Override
        public void onStop() {
            stopping = true;
            Thread t = thread;
            if (t != null && t != Thread.currentThread()) {
                try {
                    t.join();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }

    /**
     * Hands out records "stream-n" (n counting from 0 per stream) on request "stream executorId", and remembers
     * on which executors each stream asked, in order. Once stream b took {@link #AFTER_MOVE} records on a second
     * executor, every request gets "end".
     */
    static final class RecordServer implements AutoCloseable {
        final CountDownLatch ended = new CountDownLatch(1);
        final Map<String, List<String>> servedOn = new ConcurrentHashMap<>();
        private final Map<String, Long> next = new ConcurrentHashMap<>();
        private final ServerSocket socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        private int afterMove;

        RecordServer() throws IOException {
            Thread t = new Thread(this::accept, "record-server");
            t.setDaemon(true);
            t.start();
        }

        int port() {
            return socket.getLocalPort();
        }

        private void accept() {
            while (!socket.isClosed()) {
                try {
                    Socket s = socket.accept();
                    Thread t = new Thread(() -> serve(s), "record-server-connection");
                    t.setDaemon(true);
                    t.start();
                } catch (IOException closed) {
                    return;
                }
            }
        }

        private void serve(Socket s) {
            try (s; BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(),
                    StandardCharsets.UTF_8));
                    PrintWriter out = new PrintWriter(s.getOutputStream(), true, StandardCharsets.UTF_8)) {
                for (String request = in.readLine(); request != null; request = in.readLine()) {
                    String[] parts = request.split(" ");
                    out.println(record(parts[0], parts[1]));
                }
            } catch (IOException e) {
                // the receiver closed the connection (it stopped or moved)
            }
        }

        private synchronized String record(String stream, String executor) {
            if (ended.getCount() == 0) {
                return "end";
            }
            List<String> on = servedOn.computeIfAbsent(stream, s -> new CopyOnWriteArrayList<>());
            if (on.isEmpty() || !on.get(on.size() - 1).equals(executor)) {
                on.add(executor);
            }
            if (stream.equals("b") && on.size() > 1 && ++afterMove >= AFTER_MOVE) {
                ended.countDown();
            }
            long n = next.merge(stream, 1L, Long::sum) - 1;
            return stream + "-" + n;
        }

        List<String> executorsOf(String stream) {
            return List.copyOf(servedOn.getOrDefault(stream, List.of()));
        }

        /** The expected counts: every record handed out, by key. */
        synchronized Map<String, Long> handedOut() {
            Map<String, Long> counts = new TreeMap<>();
            next.forEach((stream, n) -> {
                for (long i = 0; i < n; i++) {
                    counts.merge(key(stream + "-" + i), 1L, Long::sum);
                }
            });
            return counts;
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
