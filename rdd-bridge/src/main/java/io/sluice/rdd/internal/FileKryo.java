package io.sluice.rdd.internal;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.KryoException;
import com.esotericsoftware.kryo.Registration;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import com.esotericsoftware.kryo.serializers.ExternalizableSerializer;
import com.esotericsoftware.kryo.serializers.JavaSerializer;
import com.esotericsoftware.kryo.util.DefaultClassResolver;
import com.esotericsoftware.kryo.util.MapReferenceResolver;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Kryo fit to decode files (state files, write-ahead-log records): data, never code. Only registered classes
 * are written or read ({@code registrationRequired}). A class name read from the bytes of a Kryo made by
 * {@link #newKryo} resolves only to a registered class: any other name fails with {@link
 * RefusedClassException} before a class of that name is looked up. (Spark's own Kryo, which decodes the
 * write-ahead log's records, keeps its resolver: there an unregistered name is looked up without
 * initialisation and then refused as unregistered, so no code of it runs.) Registrations that would hand the
 * bytes to Java serialization (Spark registers a few, such as {@code SerializableWritable}) are refused in
 * both: Java serialization runs whatever the stream names. Names are checked once per name read, a map
 * lookup, not per record.
 */
public final class FileKryo {
    private FileKryo() {
    }

    /** A Kryo whose class names resolve only to its registrations; call {@link #restrict} once registered. */
    public static Kryo newKryo() {
        return new Kryo(new RegisteredOnly(), new MapReferenceResolver());
    }

    /** Restricts {@code kryo} (after every registration is made) and returns it. */
    public static Kryo restrict(Kryo kryo) {
        kryo.setRegistrationRequired(true);
        for (int id = 0; id < kryo.getNextRegistrationId(); id++) {
            Registration r = kryo.getRegistration(id);
            if (r != null && (r.getSerializer() instanceof JavaSerializer
                    || r.getSerializer() instanceof ExternalizableSerializer)) {
                r.setSerializer(new Refusing(r.getType().getName()));
            }
        }
        return kryo;
    }

    /** The class a decoding error refused, if it was refused here. */
    public static Optional<String> refusedClass(Throwable error) {
        for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof RefusedClassException r) {
                return Optional.of(r.className());
            }
        }
        return Optional.empty();
    }

    /** Records could not be written to a file: they are (or hold) a class Kryo may not write there. */
    public static final class UnwritableClassException extends IllegalArgumentException {
        private static final String NOT_REGISTERED = "Class is not registered: "; // Kryo's registrationRequired
        private final String className;

        UnwritableClassException(String className, Throwable cause) {
            super("records written to a file must be of classes registered with Kryo, and " + (cause
                    instanceof RefusedClassException ? cause.getMessage() : className + " is not (register it: "
                    + "spark.kryo.classesToRegister=" + className + ", or in a spark.kryo.registrator)"), cause);
            this.className = className;
        }

        /** What {@code error} says if a write refused its class. */
        public static Optional<UnwritableClassException> of(Throwable error) {
            for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
                if (t instanceof RefusedClassException r) {
                    return Optional.of(new UnwritableClassException(r.className(), r));
                }
                String m = t.getMessage();
                if (t instanceof IllegalArgumentException && m != null && m.startsWith(NOT_REGISTERED)) {
                    int end = m.indexOf('\n');
                    String name = m.substring(NOT_REGISTERED.length(), end < 0 ? m.length() : end).trim();
                    return Optional.of(new UnwritableClassException(name, error));
                }
            }
            return Optional.empty();
        }

        public String className() {
            return className;
        }
    }

    /** A file named a class that is not registered (or that only Java serialization reads). */
    public static final class RefusedClassException extends KryoException {
        private final String className;

        RefusedClassException(String className, String why) {
            super("class " + className + " " + why + " (files are read with Sluice's own classes, standard value "
                    + "types and the classes registered with Kryo only)");
            this.className = className;
        }

        public String className() {
            return className;
        }
    }

    private static final class RegisteredOnly extends DefaultClassResolver {
        private final Map<String, Class<?>> registered = new HashMap<>();

        @Override
        public Registration register(Registration registration) {
            registered.put(registration.getType().getName(), registration.getType());
            return super.register(registration);
        }

        @Override
        protected Class<?> getTypeByName(String className) {
            Class<?> type = registered.get(className);
            if (type == null) {
                throw new RefusedClassException(className, "is not registered; it was not loaded");
            }
            return type;
        }
    }

    private static final class Refusing extends Serializer<Object> {
        private final String className;

        Refusing(String className) {
            this.className = className;
        }

        @Override
        public void write(Kryo kryo, Output output, Object object) {
            throw new RefusedClassException(className, "is registered with Java serialization, which Sluice "
                    + "never writes to a file");
        }

        @Override
        public Object read(Kryo kryo, Input input, Class<Object> type) {
            throw new RefusedClassException(className, "is registered with Java serialization, which Sluice "
                    + "never reads from a file");
        }
    }
}
