package io.sluice.dstream.source.internal.receiver;

import io.sluice.dstream.source.internal.LineReader;
import io.sluice.dstream.source.internal.PackedLines;
import io.sluice.dstream.source.internal.SourceSettings.BadRecordPolicy;
import io.sluice.dstream.receiver.Receiver;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.Iterator;
import org.apache.spark.api.java.function.Function;
import org.apache.spark.storage.StorageLevel;

/**
 * Connects to a TCP server and stores what it sends: UTF-8 lines ({@code socketTextStream}), or the records a
 * converter makes of the byte stream ({@code socketStream}). When the server closes the connection, refuses it
 * or does not accept within the connect timeout, the receiver restarts, which reconnects with backoff; each
 * reconnect is counted and reported. Lines that are not UTF-8, too long, or cut off by a closing server are
 * stored repaired and counted under the {@code replace} policy (as Spark Streaming's reader decodes them), and go
 * to the bad-record policy otherwise, as do records the converter fails on.
 */
public final class SocketReceiver<T> extends Receiver<T> {
    private static final long serialVersionUID = 1L;

    private final String host;
    private final int port;
    private final Function<InputStream, Iterable<T>> converter;
    private final int maxLineLength;
    private final boolean repair;
    private final int connectTimeoutMillis;
    private transient volatile Socket socket;

    /** Lines are stored packed ({@link PackedLines}) up to this many at a time. */
    private static final int PACK_LINES = 4096;

    /**
     * A receiver of lines, stored packed: its stream must read its blocks as packed lines
     * ({@code ReceiverSource.lines}).
     */
    public static SocketReceiver<PackedLines> lines(String host, int port, StorageLevel level, int maxLineLength,
            BadRecordPolicy policy, int connectTimeoutMillis) {
        return new SocketReceiver<>(host, port, null, level, maxLineLength, policy == BadRecordPolicy.REPLACE,
                connectTimeoutMillis);
    }

    public static <T> SocketReceiver<T> converting(String host, int port, Function<InputStream, Iterable<T>> converter,
            StorageLevel level, int connectTimeoutMillis) {
        return new SocketReceiver<>(host, port, converter, level, Integer.MAX_VALUE, false, connectTimeoutMillis);
    }

    private SocketReceiver(String host, int port, Function<InputStream, Iterable<T>> converter, StorageLevel level,
            int maxLineLength, boolean repair, int connectTimeoutMillis) {
        super(level);
        checkPort(port);
        this.host = host;
        this.port = port;
        this.converter = converter;
        this.maxLineLength = maxLineLength;
        this.repair = repair;
        this.connectTimeoutMillis = connectTimeoutMillis;
    }

    /** Checks a port where the stream is created (the receiver itself is made when the context starts). */
    public static void checkPort(int port) {
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port must be within 0..65535, was " + port);
        }
    }

    public String address() {
        return host + ":" + port;
    }

    @Override
    public void onStart() {
        Thread t = new Thread(this::receive, "sluice-socket-receiver-" + address());
        t.setDaemon(true);
        t.start();
    }

    @Override
    public void onStop() {
        Socket s = socket;
        socket = null;
        if (s != null) {
            try {
                s.close(); // unblocks the receiving thread's read
            } catch (IOException e) {
                // already closed
            }
        }
    }

    private void receive() {
        Socket s = new Socket();
        socket = s;
        try {
            s.connect(new InetSocketAddress(host, port), connectTimeoutMillis);
        } catch (IOException e) {
            closeQuietly(s);
            if (!isStopped()) {
                restart("cannot connect to " + address(), e);
            }
            return;
        }
        try (InputStream in = s.getInputStream()) {
            if (converter == null) {
                receiveLines(in);
            } else {
                receiveConverted(in);
            }
            if (!isStopped()) {
                restart("the server at " + address() + " closed the connection");
            }
        } catch (Exception e) {
            if (!isStopped()) {
                restart("error receiving from " + address(), e);
            }
        } finally {
            closeQuietly(s);
        }
    }

    private void receiveLines(InputStream in) throws IOException {
        LineReader reader = new LineReader(in, maxLineLength, true, repair);
        PackedLines.Builder pack = new PackedLines.Builder();
        LineReader.LineSink sink = new LineReader.LineSink() {
            @Override
            public void line(byte[] bytes, int off, int len) {
                pack.add(bytes, off, len);
                if (pack.size() >= PACK_LINES) {
                    flush();
                }
            }

            @Override
            public void flush() { // also before every read that may block: no line waits for the next one
                if (pack.size() > 0) {
                    storePacked(pack.build());
                }
            }
        };
        try {
            while (!isStopped()) {
                LineReader.Line line = reader.next(sink);
                if (line.isEnd()) {
                    return;
                }
                if (line.isRepaired()) {
                    sink.flush(); // the repaired line is stored with the block its count goes to
                    reportRepairedRecord(address() + " " + line.problem());
                } else if (line.problem() != null) {
                    sink.flush(); // keep the order: the lines before a bad one are stored first
                    reportBadRecord(address() + ": " + line.problem());
                }
            }
        } finally {
            if (!isStopped()) {
                sink.flush();
            }
        }
    }

    /** Only a receiver made by {@link #lines} reads lines: its {@code T} is {@link PackedLines}. */
    @SuppressWarnings("unchecked")
    private void storePacked(PackedLines lines) {
        store((T) lines);
    }

    private void receiveConverted(InputStream in) throws Exception {
        Iterator<T> records = converter.call(in).iterator();
        long n = 0;
        while (!isStopped() && records.hasNext()) {
            n++;
            T record;
            try {
                record = records.next();
            } catch (RuntimeException e) {
                reportBadRecord(address() + ": the converter failed on record " + n + ": " + e);
                continue;
            }
            store(record);
        }
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException e) {
            // nothing to release
        }
    }
}
