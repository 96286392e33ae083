package io.sluice.dstream.internal;

import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import scala.Tuple2;
import scala.reflect.ClassTag;
import scala.reflect.ClassTag$;

/** Free conversions between Spark's two Java views of an RDD of pairs (both wrap the same RDD). */
public final class Rdds {
    private Rdds() {
    }

    public static <K, V> JavaPairRDD<K, V> pairs(JavaRDD<Tuple2<K, V>> rdd) {
        return JavaPairRDD.fromJavaRDD(rdd);
    }

    public static <K, V> JavaRDD<Tuple2<K, V>> tuples(JavaPairRDD<K, V> rdd) {
        return new JavaRDD<>(rdd.rdd(), anyTag());
    }

    @SuppressWarnings("unchecked")
    public static <T> ClassTag<T> anyTag() {
        return (ClassTag<T>) ClassTag$.MODULE$.AnyRef();
    }
}
