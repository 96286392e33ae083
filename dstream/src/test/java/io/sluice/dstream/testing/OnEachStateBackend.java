package io.sluice.dstream.testing;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A test class that extends this runs once per state backend ({@link StateBackends#names}): every context its
 * tests start on the shared SparkContext keeps its state in {@link #backend}; a test that starts a child JVM
 * passes it on ({@code -D}{@value StateBackends#PROPERTY}).
 */
@ParameterizedClass(name = "{0}")
@MethodSource("io.sluice.dstream.testing.StateBackends#names")
public abstract class OnEachStateBackend {
    @Parameter
    protected String backend;

    @BeforeEach
    void useBackend() {
        StateBackends.use(backend);
    }

    @AfterEach
    void resetBackend() {
        StateBackends.reset();
    }
}
