package io.sluice.rdd.internal;

import java.io.IOException;
import java.io.NotSerializableException;
import java.io.ObjectOutputStream;
import java.io.OutputStream;
import java.util.Optional;

/** Checks, on the driver, that a user function can be shipped to executors the way Spark ships closures. */
public final class Serialization {
    private Serialization() {
    }

    /**
     * Serializes {@code function} with Java serialization, as Spark's closure serializer does.
     *
     * @return empty when it serializes, else a sentence naming the class that does not
     */
    public static Optional<String> problemWith(Object function) {
        try (ObjectOutputStream out = new ObjectOutputStream(OutputStream.nullOutputStream())) {
            out.writeObject(function);
            return Optional.empty();
        } catch (NotSerializableException e) {
            return Optional.of("class " + e.getMessage() + " is not serializable");
        } catch (IOException | RuntimeException e) {
            return Optional.of(e.toString());
        }
    }
}
