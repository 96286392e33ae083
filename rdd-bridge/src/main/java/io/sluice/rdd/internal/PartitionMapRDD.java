package io.sluice.rdd.internal;

import java.util.List;
import org.apache.spark.OneToOneDependency;
import org.apache.spark.Partition;
import org.apache.spark.Partitioner;
import org.apache.spark.TaskContext;
import org.apache.spark.rdd.RDD;
import scala.Option;
import scala.collection.Iterator;
import scala.jdk.javaapi.CollectionConverters;
import scala.reflect.ClassTag$;

/**
 * Each partition of the parent turned into a partition of records by a {@link PartitionFunction}: Spark's
 * {@code mapPartitionsWithIndex}, built without its per-call costs. Spark cleans the function of every RDD it
 * builds, and for the Scala lambdas its Java API wraps user functions in, cleaning parses the bytecode of the
 * wrapping class; it also records the operation's scope as JSON. A streaming job builds these RDDs on every
 * batch, so {@link Transforms} builds them here instead. (Sluice checks that user functions serialize when
 * the context starts.)
 */
public final class PartitionMapRDD<A, B> extends RDD<B> {
    private static final long serialVersionUID = 1L;

    private final PartitionFunction<A, B> function;
    private final boolean preservesPartitioning;

    /** {@code tag}: {@link ClassTags#pairs()} for an RDD of pairs, else {@link ClassTags#any()}. */
    public PartitionMapRDD(RDD<A> parent, PartitionFunction<A, B> function, boolean preservesPartitioning,
            scala.reflect.ClassTag<B> tag) {
        super(parent.context(), CollectionConverters.asScala(
                List.<org.apache.spark.Dependency<?>>of(new OneToOneDependency<>(parent))).toList(), tag);
        this.function = function;
        this.preservesPartitioning = preservesPartitioning;
    }

    @Override
    public Partition[] getPartitions() {
        return parent().partitions();
    }

    @Override
    public Option<Partitioner> partitioner() {
        return preservesPartitioning ? parent().partitioner() : Option.empty();
    }

    @Override
    public Iterator<B> compute(Partition split, TaskContext context) {
        java.util.Iterator<A> records = CollectionConverters.asJava(parent().iterator(split, context));
        try {
            return CollectionConverters.asScala(function.apply(split.index(), records));
        } catch (Exception e) {
            throw Transforms.unchecked(e);
        }
    }

    @SuppressWarnings("unchecked")
    private RDD<A> parent() {
        return (RDD<A>) firstParent(ClassTag$.MODULE$.AnyRef());
    }
}
