package io.sluice.dstream.testing;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A TCP server on 127.0.0.1 for source tests: each accepted connection is handed to the test, which writes
 * exactly the bytes it wants (lines, invalid UTF-8, a line cut off by closing) and closes when it wants.
 */
public final class LineServer implements AutoCloseable {
    private final ServerSocket server;
    private final BlockingQueue<Socket> accepted = new LinkedBlockingQueue<>();
    private final Thread acceptor;

    public LineServer() throws IOException {
        server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        acceptor = new Thread(() -> {
            try {
                while (true) {
                    accepted.add(server.accept());
                }
            } catch (IOException e) {
                // closed
            }
        }, "test-line-server");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    public int port() {
        return server.getLocalPort();
    }

    /** Waits for the next connection (a receiver connecting or reconnecting). */
    public Connection accept() throws InterruptedException {
        Socket s = accepted.poll(60, TimeUnit.SECONDS);
        if (s == null) {
            throw new AssertionError("no receiver connected to port " + port() + " within 60 s");
        }
        return new Connection(s);
    }

    @Override
    public void close() throws IOException {
        server.close();
        for (Socket s : accepted) {
            s.close();
        }
    }

    /** One accepted connection. */
    public static final class Connection implements AutoCloseable {
        private final Socket socket;
        private final OutputStream out;

        Connection(Socket socket) throws InterruptedException {
            this.socket = socket;
            try {
                this.out = socket.getOutputStream();
            } catch (IOException e) {
                throw new AssertionError(e);
            }
        }

        public Connection lines(String... lines) throws IOException {
            for (String line : lines) {
                out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
            }
            out.flush();
            return this;
        }

        public Connection bytes(byte[] bytes) throws IOException {
            out.write(bytes);
            out.flush();
            return this;
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
