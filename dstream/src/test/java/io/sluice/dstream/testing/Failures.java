package io.sluice.dstream.testing;

import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.sluice.dstream.StreamingException;
import java.util.Arrays;
import java.util.stream.Collectors;

/** What tests read from the exceptions awaitTermination throws for a failed batch (as Spark Streaming's). */
public final class Failures {
    private Failures() {
    }

    /** The first exception of {@code type} in {@code error}'s cause chain; fails the test if there is none. */
    public static <T extends Throwable> T inCauseChain(Throwable error, Class<T> type) {
        for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (type.isInstance(t)) {
                return type.cast(t);
            }
        }
        assertNotNull(null, "no " + type.getName() + " in the cause chain of " + error);
        return null;
    }

    /** The operator and batch a user's own exception was named with (its suppressed StreamingExceptions). */
    public static String naming(Throwable userException) {
        return Arrays.stream(userException.getSuppressed()).filter(s -> s instanceof StreamingException)
                .map(Throwable::getMessage).collect(Collectors.joining("\n"));
    }
}
