package io.sluice.rdd.internal;

import com.esotericsoftware.kryo.KryoException;
import com.esotericsoftware.kryo.Registration;
import com.esotericsoftware.kryo.util.DefaultClassResolver;
import java.util.HashMap;
import java.util.Map;

/**
 * The class resolver of every Kryo that decodes files Sluice wrote (state files, write-ahead-log records): a
 * class name read from the bytes resolves only to a class registered with that Kryo (Sluice's own, the standard
 * value types, the application's registrations); any other name fails with {@link RefusedClassException}
 * before a class of that name is looked up, so a crafted file cannot make the JVM load or initialise a class.
 * The check is one map lookup per name, and Kryo reads each name once per object graph.
 */
public final class RegisteredClassResolver extends DefaultClassResolver {
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
            throw new RefusedClassException(className);
        }
        return type;
    }

    /** A decoded file named a class that is not registered; the class was neither loaded nor initialised. */
    public static final class RefusedClassException extends KryoException {
        private final String className;

        RefusedClassException(String className) {
            super("names class " + className + ", which is not registered (only Sluice's own classes, standard "
                    + "value types and the classes registered with Kryo are read from files); the class was not "
                    + "loaded");
            this.className = className;
        }

        public String className() {
            return className;
        }
    }
}
