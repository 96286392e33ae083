package io.sluice.dstream.internal;

import io.sluice.rdd.Time;
import java.util.Iterator;
import org.apache.spark.api.java.function.FlatMapFunction;
import org.apache.spark.api.java.function.Function;
import org.apache.spark.api.java.function.Function2;
import org.apache.spark.api.java.function.PairFlatMapFunction;
import org.apache.spark.api.java.function.PairFunction;
import scala.Tuple2;

/**
 * Wraps the user functions an operator ships to tasks so that an exception they throw names the operator and
 * the batch ("map at App.java:42 failed at batch 1000 ms: ..."): Spark's own error names only the job. An
 * operator building its RDD of a batch gets one of these for that batch (see {@link DerivedOperator}); the
 * wrapper costs one try block per call.
 */
public final class UserFunctions {
    private final String where;

    private UserFunctions(String where) {
        this.where = where;
    }

    /** The wrappers for {@code operator}'s RDD of batch {@code time}. */
    static UserFunctions building(String operator, Time time) {
        return new UserFunctions(operator + " failed at batch " + time);
    }

    /**
     * The user's exception itself, thrown on as Spark Streaming would (so the job's SparkException has it as its
     * cause, with no wrapper between), naming the operator and batch in a suppressed exception: Spark prints the
     * task's whole stack trace, suppressed ones included, in the job's failure message.
     */
    private static RuntimeException named(String where, Exception e) {
        boolean alreadyNamed = false;
        for (Throwable s : e.getSuppressed()) {
            alreadyNamed |= s instanceof UserFunctionException;
        }
        if (!alreadyNamed) {
            e.addSuppressed(new UserFunctionException(where));
        }
        return UserFunctions.<RuntimeException>sneaky(e);
    }

    @SuppressWarnings("unchecked")
    private static <E extends Exception> RuntimeException sneaky(Exception e) throws E {
        throw (E) e;
    }

    public <T, R> Function<T, R> function(Function<T, R> f) {
        String where = this.where; // the lambda captures the text, not this object
        return x -> {
            try {
                return f.call(x);
            } catch (Exception e) {
                throw named(where, e);
            }
        };
    }

    public <A, B, R> Function2<A, B, R> function2(Function2<A, B, R> f) {
        String where = this.where;
        return (a, b) -> {
            try {
                return f.call(a, b);
            } catch (Exception e) {
                throw named(where, e);
            }
        };
    }

    public <T, U> FlatMapFunction<T, U> flatMap(FlatMapFunction<T, U> f) {
        String where = this.where; // the lambda captures the text, not this object
        return x -> {
            try {
                return f.call(x);
            } catch (Exception e) {
                throw named(where, e);
            }
        };
    }

    public <T, K, V> PairFunction<T, K, V> pair(PairFunction<T, K, V> f) {
        String where = this.where; // the lambda captures the text, not this object
        return x -> {
            try {
                return f.call(x);
            } catch (Exception e) {
                throw named(where, e);
            }
        };
    }

    public <T, K, V> PairFlatMapFunction<T, K, V> pairFlatMap(PairFlatMapFunction<T, K, V> f) {
        String where = this.where; // the lambda captures the text, not this object
        return x -> {
            try {
                Iterator<Tuple2<K, V>> out = f.call(x);
                return out;
            } catch (Exception e) {
                throw named(where, e);
            }
        };
    }

    /** Where a user function failed in a task ("map at App.java:42 failed at batch 1000 ms"), suppressed. */
    public static final class UserFunctionException extends RuntimeException {
        UserFunctionException(String where) {
            super(where, null, false, false); // no stack: the user's exception carries it
        }
    }
}
