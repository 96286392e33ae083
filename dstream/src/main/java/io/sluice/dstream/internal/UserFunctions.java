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

    private static RuntimeException named(String where, Exception e) {
        return e instanceof UserFunctionException u ? u : new UserFunctionException(where, e);
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

    /** A user function failed in a task; Spark reports this message (and its cause) in the job's failure. */
    public static final class UserFunctionException extends RuntimeException {
        UserFunctionException(String where, Throwable cause) {
            super(where + ": " + cause, cause);
        }
    }
}
