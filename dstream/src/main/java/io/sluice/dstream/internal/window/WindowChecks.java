package io.sluice.dstream.internal.window;

import java.time.Duration;

/** The default lineage-cut interval of windowed streams. */
final class WindowChecks {
    /** Spark Streaming's default checkpoint interval for streams that must cut lineage. */
    static final Duration MIN_CHECKPOINT_INTERVAL = Duration.ofSeconds(10);

    private WindowChecks() {
    }

    /** The smallest multiple of {@code slide} that is at least 10 s (Spark Streaming's default). */
    static Duration defaultCheckpointInterval(Duration slide) {
        long s = slide.toMillis();
        long multiples = (MIN_CHECKPOINT_INTERVAL.toMillis() + s - 1) / s;
        return Duration.ofMillis(s * multiples);
    }
}
