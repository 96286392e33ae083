package io.sluice.dstream.crash;

import io.sluice.dstream.receiver.Receiver;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.storage.StorageLevel;

/**
 * A reliable receiver for the crash test: the server sends records in chunks ended by a "." line; the receiver
 * stores each chunk as one block and acknowledges it ("ack n") only once {@code store} returned, that is once the
 * block is in the write-ahead log and the driver logged it.
 */
public final class AckingReceiver extends Receiver<String> {
    private final String host;
    private final int port;
    private transient volatile Socket socket;

    public AckingReceiver(String host, int port) {
        super(StorageLevel.MEMORY_AND_DISK_SER());
        this.host = host;
        this.port = port;
    }

    @Override
    public void onStart() {
        Thread t = new Thread(this::receive, "acking-receiver");
        t.setDaemon(true);
        t.start();
    }

    @Override
    public void onStop() {
        Socket s = socket;
        if (s != null) {
            try {
                s.close();
            } catch (IOException e) {
                // closed
            }
        }
    }

    private void receive() {
        try (Socket s = new Socket()) {
            socket = s;
            s.connect(new InetSocketAddress(host, port), 10_000);
            BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
            OutputStream out = s.getOutputStream();
            List<String> chunk = new ArrayList<>();
            String line;
            while (!isStopped() && (line = in.readLine()) != null) {
                if (line.equals(".")) {
                    store(chunk);
                    out.write(("ack " + chunk.size() + "\n").getBytes(StandardCharsets.UTF_8));
                    out.flush();
                    chunk = new ArrayList<>();
                } else {
                    chunk.add(line);
                }
            }
            if (!isStopped()) {
                restart("the server closed the connection");
            }
        } catch (IOException e) {
            if (!isStopped()) {
                restart("connection to the test server failed", e);
            }
        }
    }
}
