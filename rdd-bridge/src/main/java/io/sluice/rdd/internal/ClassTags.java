package io.sluice.rdd.internal;

import scala.reflect.ClassTag;
import scala.reflect.ClassTag$;

/** The class tag Sluice's Java code gives Spark for any element type: Spark needs one, erasure leaves no other. */
public final class ClassTags {
    private ClassTags() {
    }

    @SuppressWarnings("unchecked")
    public static <T> ClassTag<T> any() {
        return (ClassTag<T>) ClassTag$.MODULE$.AnyRef();
    }
}
