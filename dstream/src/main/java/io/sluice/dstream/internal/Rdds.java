package io.sluice.dstream.internal;

import io.sluice.rdd.internal.ClassTags;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import scala.Tuple2;

/** Free conversions between Spark's two Java views of an RDD of pairs (both wrap the same RDD). */
public final class Rdds {
    private Rdds() {
    }

    public static <K, V> JavaPairRDD<K, V> pairs(JavaRDD<Tuple2<K, V>> rdd) {
        return JavaPairRDD.fromJavaRDD(rdd);
    }

    public static <K, V> JavaRDD<Tuple2<K, V>> tuples(JavaPairRDD<K, V> rdd) {
        return new JavaRDD<>(rdd.rdd(), ClassTags.any());
    }
}
