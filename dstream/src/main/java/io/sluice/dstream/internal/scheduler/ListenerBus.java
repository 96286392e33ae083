package io.sluice.dstream.internal.scheduler;

import io.sluice.dstream.scheduler.StreamingListener;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Delivers listener events in order on its own thread; a listener that throws is logged, not fatal. */
public final class ListenerBus {
    private static final Logger LOG = LoggerFactory.getLogger(ListenerBus.class);
    private static final Object STOP = new Object();

    private final List<StreamingListener> listeners = new CopyOnWriteArrayList<>();
    private final BlockingQueue<Object> queue = new LinkedBlockingQueue<>();
    private final Thread thread;

    public ListenerBus(String contextName) {
        thread = new Thread(this::run, "sluice-listener-bus-" + contextName);
        thread.setDaemon(true);
        thread.start();
    }

    public void add(StreamingListener listener) {
        listeners.add(listener);
    }

    public void remove(StreamingListener listener) {
        listeners.remove(listener);
    }

    public void post(StreamingListener.Event event) {
        queue.add(event);
    }

    /** Delivers everything posted so far, then stops. */
    public void stop() {
        queue.add(STOP);
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void run() {
        while (true) {
            Object next;
            try {
                next = queue.take();
            } catch (InterruptedException e) {
                return;
            }
            if (next == STOP) {
                return;
            }
            StreamingListener.Event event = (StreamingListener.Event) next;
            for (StreamingListener listener : listeners) {
                try {
                    event.deliverTo(listener);
                } catch (RuntimeException e) {
                    LOG.warn("Streaming listener {} failed on {}", listener, event, e);
                }
            }
        }
    }
}
