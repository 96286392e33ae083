package io.sluice.dstream;

import io.sluice.dstream.internal.SourceOperator;
import io.sluice.dstream.source.internal.receiver.ReceiverSource;
import io.sluice.dstream.source.internal.receiver.TrackedReceiver;
import java.time.Duration;

/** Test access to a receiver stream's driver-side state (records received so far, reconnects, failure). */
final class SourcesTesting {
    static final Duration WAIT = Duration.ofSeconds(60);

    private SourcesTesting() {
    }

    static TrackedReceiver receiverOf(DStream<?> stream) {
        return ((ReceiverSource<?>) ((SourceOperator<?>) stream.operator()).source()).stream();
    }

    /** Waits until the receiver reported {@code records} good and {@code skipped} bad records in all. */
    static void awaitReceived(DStream<?> stream, long records, long skipped) throws InterruptedException {
        TrackedReceiver s = receiverOf(stream);
        if (!s.awaitReceived(records, skipped, WAIT)) {
            throw new AssertionError(s.source() + " reported " + s.received() + " records and " + s.skipped()
                    + " skipped, not " + records + " and " + skipped + (s.failure() == null ? "" : "; it failed: "
                    + s.failure()));
        }
    }
}
