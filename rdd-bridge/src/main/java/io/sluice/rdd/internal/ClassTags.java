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

    /**
     * The class tag of an RDD of pairs: Spark's pair functions ({@code collectAsMap}) collect into an array of
     * {@code Tuple2}, which an RDD tagged with {@link #any()} cannot give.
     */
    @SuppressWarnings("unchecked")
    public static <K, V> ClassTag<scala.Tuple2<K, V>> pairs() {
        return (ClassTag<scala.Tuple2<K, V>>) (ClassTag<?>) ClassTag$.MODULE$.apply(scala.Tuple2.class);
    }
}
