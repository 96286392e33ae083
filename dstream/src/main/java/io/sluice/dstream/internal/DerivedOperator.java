package io.sluice.dstream.internal;

import io.sluice.rdd.Time;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.spark.api.java.JavaRDD;

/**
 * An operator whose RDD at time t is a function of its parents' RDDs at t: map, filter, reduceByKey, join,
 * union, transform and their kin. One class serves them all; they differ only in the RDD function.
 *
 * <p>All parents must have the same slide (checked at start, {@link GraphDescription#validate}); when any parent
 * has no RDD at t, neither does this operator.
 */
public final class DerivedOperator<T> extends Operator<T> {
    /**
     * Builds the batch's RDD on the driver from the parents' RDDs, in the order the parents were given; user
     * functions shipped to tasks are wrapped with {@code functions} so that their failures name the batch.
     */
    @FunctionalInterface
    public interface BatchFunction<T> {
        JavaRDD<T> apply(List<JavaRDD<?>> parents, Time time, UserFunctions functions) throws Exception;
    }

    private final BatchFunction<T> function;

    private DerivedOperator(Config config, BatchFunction<T> function) {
        super(config);
        this.function = function;
    }

    /** Describes a stream derived from {@code parents} (their slide is the first one's; checked at start). */
    public static <T> Node<T> node(GraphDescription graph, String kind, List<Node<?>> parents, List<?> userFunctions,
            BatchFunction<T> function) {
        return graph.add(kind, CallSite.of(kind), parents, parents.get(0).slide(), null, userFunctions,
                Node.Settings.DEFAULT, config -> new DerivedOperator<>(config, function));
    }

    /**
     * As {@link #node(GraphDescription, String, List, List, BatchFunction)}, for a stream that reads its parents'
     * operators themselves (a stateful operator's state): {@code function} is made from them at start.
     */
    public static <T> Node<T> nodeOnOperators(GraphDescription graph, String kind, List<Node<?>> parents,
            java.util.function.Function<List<Operator<?>>, BatchFunction<T>> function) {
        return graph.add(kind, CallSite.of(kind), parents, parents.get(0).slide(), null, List.of(),
                Node.Settings.DEFAULT, config -> new DerivedOperator<>(config, function.apply(config.parents())));
    }

    /** A stream with one parent whose RDD is {@code function(parent's RDD)}. */
    public static <P, T> Node<T> node(GraphDescription graph, String kind, Node<P> parent, Object userFunction,
            OneParent<P, T> function) {
        List<Object> fns = userFunction == null ? List.of() : List.of(userFunction);
        return node(graph, kind, List.of(parent), fns, (rdds, time, functions) -> {
            @SuppressWarnings("unchecked")
            JavaRDD<P> rdd = (JavaRDD<P>) rdds.get(0);
            return function.apply(rdd, time, functions);
        });
    }

    @FunctionalInterface
    public interface OneParent<P, T> {
        JavaRDD<T> apply(JavaRDD<P> parent, Time time, UserFunctions functions) throws Exception;
    }

    /** The function's failures, thrown on the driver, are named once, by {@link Operator#getOrCompute}. */
    @Override
    protected Optional<JavaRDD<T>> compute(Time time) throws Exception {
        List<JavaRDD<?>> rdds = new ArrayList<>(parents().size());
        for (Operator<?> parent : parents()) {
            Optional<? extends JavaRDD<?>> rdd = parent.getOrCompute(time);
            if (rdd.isEmpty()) {
                return Optional.empty();
            }
            rdds.add(rdd.get());
        }
        return Optional.of(function.apply(rdds, time, UserFunctions.building(describe(), time)));
    }
}
