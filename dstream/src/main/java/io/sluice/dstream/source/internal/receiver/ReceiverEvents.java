package io.sluice.dstream.source.internal.receiver;

import io.sluice.dstream.Clock;
import io.sluice.dstream.scheduler.ReceiverInfo;
import io.sluice.dstream.scheduler.StreamingListener;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * What the context's listeners hear of its receivers: each event (started, reconnected, error, moving, stopped)
 * with the receiver's state after it ({@link ReceiverInfo}: active or not, host, executor, last error), which is
 * kept per stream so that an event carries the last error before it.
 */
final class ReceiverEvents {
    private final Consumer<StreamingListener.Event> listeners;
    private final Clock clock;
    private final Map<Integer, String> hosts = new ConcurrentHashMap<>(); // by stream id, from its last registration
    private final Map<Integer, ReceiverInfo> infos = new ConcurrentHashMap<>(); // by stream id: what listeners heard

    ReceiverEvents(Consumer<StreamingListener.Event> listeners, Clock clock) {
        this.listeners = listeners;
        this.clock = clock;
    }

    /** The receiver of stream {@code streamId} registered from {@code host}. */
    void registered(int streamId, String host) {
        hosts.put(streamId, host);
    }

    /** {@code error}: the reported error's stack trace, or empty. */
    void post(TrackedReceiver s, String kind, String message, String error) {
        long now = clock.millis();
        ReceiverInfo info = infos.compute(s.streamId(), (id, before) -> next(s, before, kind, message, error, now));
        listeners.accept(new StreamingListener.ReceiverEvent(s.source(), kind, message, now, info));
    }

    /** The receiver's state after an event, from its state before (null before its first event). */
    private ReceiverInfo next(TrackedReceiver s, ReceiverInfo before, String kind, String message, String error,
            long now) {
        String executor = s.executorId() != null ? s.executorId() : before == null ? "" : before.executorId();
        String host = hosts.getOrDefault(s.streamId(), "");
        boolean active = switch (kind) {
            case "started", "reconnected" -> true;
            case "stopped", "moving" -> false;
            default -> before != null && before.active() && !s.finished();
        };
        if (kind.equals("error")) {
            return new ReceiverInfo(s.streamId(), s.source(), active, host, executor, message, error, now);
        }
        return before == null ? new ReceiverInfo(s.streamId(), s.source(), active, host, executor, "", "", -1)
                : new ReceiverInfo(s.streamId(), s.source(), active, host, executor, before.lastErrorMessage(),
                        before.lastError(), before.lastErrorTime());
    }
}
