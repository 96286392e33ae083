package io.sluice.rdd.internal;

import java.util.Collections;
import java.util.Iterator;
import java.util.NoSuchElementException;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaRDDLike;
import org.apache.spark.api.java.function.FlatMapFunction;
import org.apache.spark.api.java.function.Function;
import org.apache.spark.api.java.function.PairFlatMapFunction;
import org.apache.spark.api.java.function.PairFunction;
import org.apache.spark.rdd.RDD;
import scala.Tuple2;

/**
 * The element-wise transformations of Spark's Java RDD API ({@code map}, {@code flatMap}, {@code filter},
 * {@code mapToPair}, {@code mapValues}, {@code mapPartitions}, ...) with the same results and partitioning,
 * built as {@link PartitionMapRDD}s: cheap enough to build on every batch. A function's exception reaches the
 * task unchanged, as with Spark's.
 */
public final class Transforms {
    private Transforms() {
    }

    public static <A, B> JavaRDD<B> map(JavaRDDLike<A, ?> rdd, Function<A, B> f) {
        return records(rdd.rdd(), (p, in) -> new Mapped<>(in, f), false);
    }

    public static <A, B> JavaRDD<B> flatMap(JavaRDDLike<A, ?> rdd, FlatMapFunction<A, B> f) {
        return records(rdd.rdd(), (p, in) -> new FlatMapped<>(in, f), false);
    }

    public static <A> JavaRDD<A> filter(JavaRDD<A> rdd, Function<A, Boolean> f) {
        return records(rdd.rdd(), (p, in) -> new Filtered<>(in, f), true);
    }

    public static <K, V> JavaPairRDD<K, V> filter(JavaPairRDD<K, V> rdd, Function<Tuple2<K, V>, Boolean> f) {
        return pairs(rdd.rdd(), (p, in) -> new Filtered<>(in, f), true);
    }

    public static <A, K, V> JavaPairRDD<K, V> mapToPair(JavaRDDLike<A, ?> rdd, PairFunction<A, K, V> f) {
        return pairs(rdd.rdd(), (p, in) -> new Mapped<>(in, f::call), false);
    }

    public static <A, K, V> JavaPairRDD<K, V> flatMapToPair(JavaRDDLike<A, ?> rdd, PairFlatMapFunction<A, K, V> f) {
        return pairs(rdd.rdd(), (p, in) -> new FlatMapped<>(in, f::call), false);
    }

    public static <K, V, W> JavaPairRDD<K, W> mapValues(JavaPairRDD<K, V> rdd, Function<V, W> f) {
        return pairs(rdd.rdd(), (p, in) -> new Mapped<>(in, kv -> new Tuple2<>(kv._1(), f.call(kv._2()))), true);
    }

    public static <K, V, W> JavaPairRDD<K, W> flatMapValues(JavaPairRDD<K, V> rdd, FlatMapFunction<V, W> f) {
        return pairs(rdd.rdd(), (p, in) -> new FlatMapped<>(in, kv -> {
            K key = kv._1();
            return new Mapped<>(f.call(kv._2()), w -> new Tuple2<>(key, w));
        }), true);
    }

    public static <A, B> JavaRDD<B> mapPartitions(JavaRDDLike<A, ?> rdd, FlatMapFunction<Iterator<A>, B> f,
            boolean preservesPartitioning) {
        return records(rdd.rdd(), (p, in) -> f.call(in), preservesPartitioning);
    }

    public static <A, K, V> JavaPairRDD<K, V> mapPartitionsToPair(JavaRDDLike<A, ?> rdd,
            PairFlatMapFunction<Iterator<A>, K, V> f, boolean preservesPartitioning) {
        return pairs(rdd.rdd(), (p, in) -> f.call(in), preservesPartitioning);
    }

    /** Spark's {@code mapPartitionsWithIndex}: {@code f} gets the partition's index and its records. */
    public static <A, B> JavaRDD<B> mapPartitionsWithIndex(JavaRDDLike<A, ?> rdd, PartitionFunction<A, B> f,
            boolean preservesPartitioning) {
        return records(rdd.rdd(), f, preservesPartitioning);
    }

    private static <A, B> JavaRDD<B> records(RDD<A> parent, PartitionFunction<A, B> f, boolean preserves) {
        return new JavaRDD<>(new PartitionMapRDD<>(parent, f, preserves, ClassTags.any()), ClassTags.any());
    }

    private static <A, K, V> JavaPairRDD<K, V> pairs(RDD<A> parent, PartitionFunction<A, Tuple2<K, V>> f,
            boolean preserves) {
        return new JavaPairRDD<>(new PartitionMapRDD<>(parent, f, preserves, ClassTags.pairs()), ClassTags.any(),
                ClassTags.any());
    }

    /** Throws {@code e} as it is, checked or not (Spark's Scala wrappers of Java functions do the same). */
    static RuntimeException unchecked(Exception e) {
        throw Transforms.<RuntimeException>sneaky(e);
    }

    @SuppressWarnings("unchecked")
    private static <E extends Exception> E sneaky(Exception e) throws E {
        throw (E) e;
    }

    private static final class Mapped<A, B> implements Iterator<B> {
        private final Iterator<A> in;
        private final Function<A, B> f;

        Mapped(Iterator<A> in, Function<A, B> f) {
            this.in = in;
            this.f = f;
        }

        @Override
        public boolean hasNext() {
            return in.hasNext();
        }

        @Override
        public B next() {
            try {
                return f.call(in.next());
            } catch (Exception e) {
                throw unchecked(e);
            }
        }
    }

    private static final class FlatMapped<A, B> implements Iterator<B> {
        private final Iterator<A> in;
        private final FlatMapFunction<A, B> f;
        private Iterator<B> current = Collections.emptyIterator();

        FlatMapped(Iterator<A> in, FlatMapFunction<A, B> f) {
            this.in = in;
            this.f = f;
        }

        @Override
        public boolean hasNext() {
            while (!current.hasNext()) {
                if (!in.hasNext()) {
                    return false;
                }
                try {
                    current = f.call(in.next());
                } catch (Exception e) {
                    throw unchecked(e);
                }
            }
            return true;
        }

        @Override
        public B next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            return current.next();
        }
    }

    private static final class Filtered<A> implements Iterator<A> {
        private final Iterator<A> in;
        private final Function<A, Boolean> f;
        private A next;
        private boolean ready;

        Filtered(Iterator<A> in, Function<A, Boolean> f) {
            this.in = in;
            this.f = f;
        }

        @Override
        public boolean hasNext() {
            while (!ready && in.hasNext()) {
                A candidate = in.next();
                try {
                    if (f.call(candidate)) {
                        next = candidate;
                        ready = true;
                    }
                } catch (Exception e) {
                    throw unchecked(e);
                }
            }
            return ready;
        }

        @Override
        public A next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            ready = false;
            A out = next;
            next = null;
            return out;
        }
    }
}
