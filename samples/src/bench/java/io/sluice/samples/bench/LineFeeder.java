package io.sluice.samples.bench;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * A loopback TCP server for the ingestion workload: writes pre-generated lines (the standard records, one per
 * line) to every connection, as fast as the socket takes them, until closed. The lines are built once, so the
 * server does no per-record work while the receiver reads.
 */
final class LineFeeder implements AutoCloseable {
    /** Records in the pre-generated chunk the server writes again and again. */
    static final int CHUNK_RECORDS = 100_000;

    private final ServerSocket server;
    private final byte[] chunk;
    private final Thread thread;
    private volatile boolean closed;

    LineFeeder(int keys) throws IOException {
        StringBuilder lines = new StringBuilder();
        for (int i = 0; i < CHUNK_RECORDS; i++) {
            lines.append(BenchRecords.word(0, i % 4, i / 4, keys)).append('\n');
        }
        this.chunk = lines.toString().getBytes(StandardCharsets.UTF_8);
        this.server = new ServerSocket(0, 5, InetAddress.getLoopbackAddress());
        this.thread = new Thread(this::serve, "bench-line-feeder");
        thread.setDaemon(true);
        thread.start();
    }

    int port() {
        return server.getLocalPort();
    }

    private void serve() {
        while (!closed) {
            try (Socket s = server.accept(); OutputStream out = s.getOutputStream()) {
                while (!closed) {
                    out.write(chunk);
                }
            } catch (IOException e) {
                // the receiver went away (or we closed); accept the next connection
            }
        }
    }

    @Override
    public void close() throws IOException {
        closed = true;
        server.close();
    }
}
