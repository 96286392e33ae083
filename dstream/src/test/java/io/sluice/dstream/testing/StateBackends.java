package io.sluice.dstream.testing;

import io.sluice.testkit.SharedSpark;

/**
 * Runs state tests on every state backend: a test class annotated
 * {@code @ParameterizedClass @MethodSource("io.sluice.dstream.testing.StateBackends#names")} gets the backend's
 * name in a {@code @Parameter} field and calls {@link #use} before each test and {@link #reset} after: every
 * context started on the shared SparkContext in between keeps its state in that backend
 * ({@code sluice.state.backend}, read when a context starts). A child JVM gets it as {@link #PROPERTY}.
 */
public final class StateBackends {
    public static final String SETTING = "sluice.state.backend";
    /** The system property test applications read the backend from. */
    public static final String PROPERTY = "sluice.test.stateBackend";

    private StateBackends() {
    }

    public static java.util.stream.Stream<String> names() {
        return java.util.stream.Stream.of("heap", "rocksdb");
    }

    public static void use(String backend) {
        SharedSpark.context().sc().conf().set(SETTING, backend);
    }

    public static void reset() {
        SharedSpark.context().sc().conf().remove(SETTING);
    }

    /** The backend a test application was started with ({@code -D}{@value #PROPERTY}), heap by default. */
    public static String ofThisJvm() {
        return System.getProperty(PROPERTY, "heap");
    }
}
