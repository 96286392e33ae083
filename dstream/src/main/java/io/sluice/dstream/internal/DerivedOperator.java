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
 * <p>All parents must have the same slide (checked at start); when any parent has no RDD at t, neither does
 * this operator.
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

    public DerivedOperator(String kind, List<Operator<?>> parents, List<?> userFunctions, BatchFunction<T> function) {
        super(parents.get(0).graph(), kind, parents, userFunctions);
        this.function = function;
    }

    /** An operator with one parent whose RDD is {@code function(parent's RDD)}. */
    public static <P, T> DerivedOperator<T> of(String kind, Operator<P> parent, Object userFunction,
            OneParent<P, T> function) {
        List<Object> fns = userFunction == null ? List.of() : List.of(userFunction);
        return new DerivedOperator<>(kind, List.of(parent), fns, (rdds, time, functions) -> {
            @SuppressWarnings("unchecked")
            JavaRDD<P> rdd = (JavaRDD<P>) rdds.get(0);
            return function.apply(rdd, time, functions);
        });
    }

    @FunctionalInterface
    public interface OneParent<P, T> {
        JavaRDD<T> apply(JavaRDD<P> parent, Time time, UserFunctions functions) throws Exception;
    }

    @Override
    protected List<String> validate(java.time.Duration batchInterval) {
        List<String> problems = new ArrayList<>(super.validate(batchInterval));
        for (Operator<?> parent : parents()) {
            if (!parent.slide().equals(slide())) {
                problems.add(describe() + " combines streams with different slides ("
                        + Durations.show(slide()) + " and " + Durations.show(parent.slide())
                        + "): window them to the same slide first");
                break;
            }
        }
        return problems;
    }

    @Override
    protected Optional<JavaRDD<T>> compute(Time time) {
        List<JavaRDD<?>> rdds = new ArrayList<>(parents().size());
        for (Operator<?> parent : parents()) {
            Optional<? extends JavaRDD<?>> rdd = parent.getOrCompute(time);
            if (rdd.isEmpty()) {
                return Optional.empty();
            }
            rdds.add(rdd.get());
        }
        try {
            return Optional.of(function.apply(rdds, time, UserFunctions.building(describe(), time)));
        } catch (OperatorException e) {
            throw e;
        } catch (Exception e) {
            throw new OperatorException(this, time, e);
        }
    }
}
