package io.sluice.dstream.source.internal.receiver;

import io.sluice.dstream.receiver.Receiver;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import org.apache.spark.storage.StorageLevel;

/**
 * {@code rawSocketStream}'s receiver, reading Spark Streaming's raw framing: frames one after another, each a
 * 4-byte big-endian length then that many bytes of a serialization stream of records (written with the
 * context's serializer). Each frame is stored as it came, unread: the records are deserialized only by the
 * tasks of the batch (the point of a raw stream is to keep deserialization off the receiver). When the server
 * closes or refuses the connection the receiver restarts, which reconnects with backoff.
 */
public final class RawSocketReceiver extends Receiver<byte[]> {
    private static final long serialVersionUID = 1L;

    private final String host;
    private final int port;
    private final int connectTimeoutMillis;
    private transient volatile Socket socket;

    public RawSocketReceiver(String host, int port, StorageLevel level, int connectTimeoutMillis) {
        super(level);
        SocketReceiver.checkPort(port);
        this.host = host;
        this.port = port;
        this.connectTimeoutMillis = connectTimeoutMillis;
    }

    private String address() {
        return host + ":" + port;
    }

    @Override
    public void onStart() {
        Thread t = new Thread(this::receive, "sluice-raw-socket-receiver-" + address());
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
        try (DataInputStream in = new DataInputStream(s.getInputStream())) {
            readFrames(in);
            if (!isStopped()) {
                restart("the server at " + address() + " closed the connection");
            }
        } catch (IOException | RuntimeException e) {
            if (!isStopped()) {
                restart("error receiving from " + address(), e);
            }
        } finally {
            closeQuietly(s);
        }
    }

    /** Returns at the end of the stream between two frames; a frame cut short is an error. */
    private void readFrames(DataInputStream in) throws IOException {
        while (!isStopped()) {
            int first = in.read();
            if (first < 0) {
                return;
            }
            int length = (first << 24) | (in.readUnsignedByte() << 16) | (in.readUnsignedByte() << 8)
                    | in.readUnsignedByte();
            if (length < 0) {
                throw new IOException(address() + " sent a frame of negative length " + length
                        + ": rawSocketStream expects 4-byte big-endian lengths, each before its frame");
            }
            byte[] frame = new byte[length];
            try {
                in.readFully(frame);
            } catch (EOFException e) {
                throw new IOException(address() + " closed the connection inside a frame of " + length + " bytes", e);
            }
            store(frame);
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
