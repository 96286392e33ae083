package io.sluice.dstream.internal;

import io.sluice.rdd.Time;
import java.util.Iterator;
import java.util.function.Supplier;
import org.apache.spark.api.java.function.FlatMapFunction;
import org.apache.spark.api.java.function.Function;
import org.apache.spark.api.java.function.Function2;
import org.apache.spark.api.java.function.PairFlatMapFunction;
import org.apache.spark.api.java.function.PairFunction;
import scala.Tuple2;

/**
 * Wraps the user functions an operator ships to tasks so that an exception they throw names the operator and
 * the batch ("map at App.java:42 failed at batch 1000 ms: ..."): Spark's own error names only the job. The
 * operator and batch are those whose RDD is being built on this thread when the wrapper is made (see {@link
 * Operator#getOrCompute}); the wrapper costs one try block per call.
 */
public final class UserFunctions {
    private static final ThreadLocal<String> BUILDING = new ThreadLocal<>();

    private UserFunctions() {
    }

    /** Runs {@code body} as the building of {@code operator}'s RDD of batch {@code time}. */
    static <R> R building(String operator, Time time, Supplier<R> body) {
        String previous = BUILDING.get();
        BUILDING.set(operator + " failed at batch " + time);
        try {
            return body.get();
        } finally {
            BUILDING.set(previous);
        }
    }

    private static String where() {
        String w = BUILDING.get();
        return w != null ? w : "a user function failed";
    }

    private static RuntimeException named(String where, Exception e) {
        return e instanceof UserFunctionException u ? u : new UserFunctionException(where, e);
    }

    public static <T, R> Function<T, R> function(Function<T, R> f) {
        String where = where();
        return x -> {
            try {
                return f.call(x);
            } catch (Exception e) {
                throw named(where, e);
            }
        };
    }

    public static <A, B, R> Function2<A, B, R> function2(Function2<A, B, R> f) {
        String where = where();
        return (a, b) -> {
            try {
                return f.call(a, b);
            } catch (Exception e) {
                throw named(where, e);
            }
        };
    }

    public static <T, U> FlatMapFunction<T, U> flatMap(FlatMapFunction<T, U> f) {
        String where = where();
        return x -> {
            try {
                return f.call(x);
            } catch (Exception e) {
                throw named(where, e);
            }
        };
    }

    public static <T, K, V> PairFunction<T, K, V> pair(PairFunction<T, K, V> f) {
        String where = where();
        return x -> {
            try {
                return f.call(x);
            } catch (Exception e) {
                throw named(where, e);
            }
        };
    }

    public static <T, K, V> PairFlatMapFunction<T, K, V> pairFlatMap(PairFlatMapFunction<T, K, V> f) {
        String where = where();
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
