package io.sluice.dstream.internal.window;

import io.sluice.rdd.BatchGrid;
import io.sluice.dstream.internal.Durations;
import io.sluice.dstream.internal.Operator;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** What windowed operators check at start, and their default lineage-cut interval. */
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

    /** The window's own problems followed by the base operator's ({@code base}). */
    static List<String> problems(Operator<?> op, Operator<?> parent, Duration window, Duration slide,
            List<String> base) {
        List<String> problems = new ArrayList<>();
        Duration parentSlide = parent.slide();
        if (!BatchGrid.isMultiple(window, parentSlide)) {
            problems.add(op.describe() + ": its window duration " + Durations.show(window)
                    + " is not a multiple of its parent stream's slide " + Durations.show(parentSlide)
                    + ": make the window a whole number of the parent's batches");
        }
        if (!BatchGrid.isMultiple(slide, parentSlide)) {
            problems.add(op.describe() + ": its slide duration " + Durations.show(slide)
                    + " is not a multiple of its parent stream's slide " + Durations.show(parentSlide)
                    + ": make the slide a whole number of the parent's batches");
        }
        problems.addAll(base);
        return problems;
    }
}
