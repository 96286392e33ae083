package io.sluice.dstream.testing;

import io.sluice.dstream.scheduler.StreamingListener;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** Collects receiver events and lets a test wait for one of a kind. */
public final class ReceiverEvents implements StreamingListener {
    private final List<ReceiverEvent> all = new CopyOnWriteArrayList<>();
    private final BlockingQueue<ReceiverEvent> queue = new LinkedBlockingQueue<>();

    @Override
    public void onReceiverEvent(ReceiverEvent event) {
        all.add(event);
        queue.add(event);
    }

    /** Waits for the next event of {@code kind}, skipping others. */
    public ReceiverEvent await(String kind) throws InterruptedException {
        while (true) {
            ReceiverEvent e = queue.poll(60, TimeUnit.SECONDS);
            if (e == null) {
                throw new AssertionError("no '" + kind + "' receiver event within 60 s; saw " + all);
            }
            if (e.kind().equals(kind)) {
                return e;
            }
        }
    }

    public List<ReceiverEvent> all() {
        return List.copyOf(all);
    }

    public long count(String kind) {
        return all.stream().filter(e -> e.kind().equals(kind)).count();
    }
}
