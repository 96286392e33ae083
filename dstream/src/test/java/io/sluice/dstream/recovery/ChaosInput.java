package io.sluice.dstream.recovery;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.HashMap;
import java.util.Map;

/**
 * The chaos run's input, a function of two numbers: the socket lines sent (numbered from 0) and the files
 * written (numbered from 0, {@link #LINES_PER_FILE} lines each). A record is "k&lt;key&gt; &lt;id&gt;", its id
 * unique, so the failure-free run gets exactly the same records and any loss or duplicate shows.
 */
final class ChaosInput {
    static final int KEYS = 40;
    static final int LINES_PER_FILE = 100;

    private ChaosInput() {
    }

    static String socketLine(long n) {
        return "k" + Math.floorMod(n * 7919, KEYS) + " s" + n;
    }

    static String fileLine(long file, int i) {
        return "k" + Math.floorMod((file * LINES_PER_FILE + i) * 104729, KEYS) + " f" + file + "-" + i;
    }

    /** The key of a record (what mapWithState and the window count by). */
    static String key(String record) {
        return record.substring(0, record.indexOf(' '));
    }

    /** Every record of the input, each once. */
    static Map<String, Integer> records(long socketLines, long files) {
        Map<String, Integer> all = new HashMap<>();
        for (long n = 0; n < socketLines; n++) {
            all.put(socketLine(n), 1);
        }
        for (long f = 0; f < files; f++) {
            for (int i = 0; i < LINES_PER_FILE; i++) {
                all.put(fileLine(f, i), 1);
            }
        }
        return all;
    }

    /**
     * A TCP server on 127.0.0.1 that outlives the drivers: it sends the numbered lines, a few every tick, to the
     * newest connection (a receiver, restarted or moved), continuing where it stopped. {@link #pause} returns
     * once no write is under way; a connection whose peer went away (its reader sees the end) is dropped, so no
     * line is written into a dead socket while the feeder is paused before a kill.
     */
    static final class Feeder implements AutoCloseable {
        private final ServerSocket server;
        private final int linesPerTick;
        private final long tickMs;
        private Socket current; // guarded by this
        private boolean paused; // guarded by this
        private long sent; // guarded by this
        private long limit = Long.MAX_VALUE; // guarded by this
        private int connections; // guarded by this
        private volatile boolean closed;

        Feeder(int linesPerTick, long tickMs) throws IOException {
            this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
            this.linesPerTick = linesPerTick;
            this.tickMs = tickMs;
            daemon(this::accept, "chaos-feeder-accept");
            daemon(this::send, "chaos-feeder-send");
        }

        int port() {
            return server.getLocalPort();
        }

        /** Stops sending after the current write; returns the lines sent so far (all flushed). */
        synchronized long pause() {
            paused = true;
            return sent;
        }

        synchronized void resume() {
            paused = false;
        }

        /** Sends nothing more, ever: the input is complete. Returns the lines sent. */
        synchronized long finish() {
            limit = sent;
            return sent;
        }

        /** Sends at most {@code lines} in all (the failure-free run replays the chaos run's input). */
        synchronized void limit(long lines) {
            limit = lines;
        }

        synchronized long sent() {
            return sent;
        }

        synchronized int connections() {
            return connections;
        }

        /** Closes the current connection: its receiver was killed with its driver. */
        synchronized void drop() {
            closeQuietly(current);
            current = null;
        }

        private void accept() {
            try {
                while (!closed) {
                    Socket s = server.accept();
                    synchronized (this) {
                        closeQuietly(current);
                        current = s;
                        connections++;
                    }
                    daemon(() -> watch(s), "chaos-feeder-watch");
                }
            } catch (IOException e) {
                // closed
            }
        }

        /** The receiver never writes: a read returns only at the connection's end. */
        private void watch(Socket s) {
            try (InputStream in = s.getInputStream()) {
                while (in.read() >= 0) {
                    // nothing is expected
                }
            } catch (IOException e) {
                // closed
            }
            synchronized (this) {
                if (current == s) {
                    closeQuietly(s);
                    current = null;
                }
            }
        }

        private void send() {
            try {
                while (!closed) {
                    synchronized (this) {
                        if (!paused && current != null && sent < limit) {
                            long n = Math.min(linesPerTick, limit - sent);
                            StringBuilder lines = new StringBuilder();
                            for (long i = sent; i < sent + n; i++) {
                                lines.append(socketLine(i)).append('\n');
                            }
                            try {
                                OutputStream out = current.getOutputStream();
                                out.write(lines.toString().getBytes(StandardCharsets.UTF_8));
                                out.flush();
                                sent += n;
                            } catch (IOException e) {
                                closeQuietly(current); // lines of a failed write are sent again on the next one
                                current = null;
                            }
                        }
                    }
                    Thread.sleep(tickMs);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        @Override
        public void close() throws IOException {
            closed = true;
            server.close();
            drop();
        }
    }

    /** Writes the numbered files into the input directory every {@code everyMs}, each moved in complete. */
    static final class FileWriter implements AutoCloseable {
        private final Path input;
        private final Path staging;
        private final long everyMs;
        private final Thread thread;
        private long written; // guarded by this
        private long limit; // guarded by this

        FileWriter(Path input, Path staging, long everyMs, long limit) throws IOException {
            this.limit = limit;
            this.input = Files.createDirectories(input);
            this.staging = Files.createDirectories(staging);
            this.everyMs = everyMs;
            this.thread = daemon(this::run, "chaos-file-writer");
        }

        /** Writes nothing more: the input is complete. Returns the files written. */
        synchronized long finish() {
            limit = written;
            return written;
        }

        synchronized long written() {
            return written;
        }

        private void run() {
            try {
                while (true) {
                    synchronized (this) { // finish() counts no file still being written
                        if (written < limit) {
                            write(written);
                            written++;
                        }
                    }
                    Thread.sleep(everyMs);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }

        private void write(long file) throws IOException {
            StringBuilder text = new StringBuilder();
            for (int i = 0; i < LINES_PER_FILE; i++) {
                text.append(fileLine(file, i)).append('\n');
            }
            Path temp = staging.resolve("f-" + file + ".txt");
            Files.writeString(temp, text);
            Files.move(temp, input.resolve("f-" + file + ".txt"), StandardCopyOption.ATOMIC_MOVE);
        }

        @Override
        public void close() {
            thread.interrupt();
        }
    }

    private static Thread daemon(Runnable body, String name) {
        Thread t = new Thread(body, name);
        t.setDaemon(true);
        t.start();
        return t;
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
}
