package io.sluice.samples.soak;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * A server on 127.0.0.1 the soak's socket source reads from: {@link #send} writes lines of one word each to the
 * connected receiver (the latest connection, after a reconnect) and says how many it wrote.
 */
public final class SocketFeeder implements AutoCloseable {
    private final ServerSocket server;
    private final Thread acceptor;
    private Socket connection; // guarded by this
    private long next;         // guarded by this: the index of the next line

    public SocketFeeder() throws IOException {
        server = new ServerSocket(0, 5, InetAddress.getLoopbackAddress());
        acceptor = new Thread(this::accept, "soak-socket-feeder");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    public int port() {
        return server.getLocalPort();
    }

    private void accept() {
        try {
            while (true) {
                Socket s = server.accept();
                synchronized (this) {
                    closeQuietly(connection);
                    connection = s;
                    notifyAll();
                }
            }
        } catch (IOException e) {
            // closed
        }
    }

    /** Waits until a receiver is connected. */
    public synchronized void awaitConnection(Duration timeout) throws InterruptedException {
        long end = System.nanoTime() + timeout.toNanos();
        while (connection == null) {
            long left = end - System.nanoTime();
            if (left <= 0) {
                throw new IllegalStateException("no receiver connected to port " + port() + " within " + timeout);
            }
            wait(Math.max(1, left / 1_000_000));
        }
    }

    /** Writes {@code lines} lines to the receiver; returns how many it wrote (0 when none is connected). */
    public synchronized int send(int lines) {
        if (connection == null) {
            return 0;
        }
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < lines; i++) {
            text.append(SoakPipeline.word(next + i)).append('\n');
        }
        try {
            OutputStream out = connection.getOutputStream();
            out.write(text.toString().getBytes(StandardCharsets.UTF_8));
            out.flush();
            next += lines;
            return lines;
        } catch (IOException e) {
            closeQuietly(connection); // the receiver went away; it reconnects
            connection = null;
            return 0;
        }
    }

    private static void closeQuietly(Socket s) {
        if (s != null) {
            try {
                s.close();
            } catch (IOException e) {
                // closing anyway
            }
        }
    }

    @Override
    public synchronized void close() throws IOException {
        server.close();
        closeQuietly(connection);
        connection = null;
    }
}
