package io.sluice.dstream.internal.context;

import io.sluice.dstream.StreamingException;
import io.sluice.dstream.internal.OperatorException;
import org.apache.spark.SparkException;

/**
 * What {@code awaitTermination} throws for a failed batch: the exception where Spark Streaming puts it, so that
 * code written for it finds the user's own exception. A Spark job's failure is a {@link SparkException} (its cause
 * chain reaches the task's exception); a failure on the driver (a {@code foreachRDD} or {@code transform}
 * function) is the user's exception itself. Either way the operator and the batch are named: in the message of
 * the SparkException, or in a suppressed {@link StreamingException} on the user's exception (its stack trace
 * prints it). Failures of the engine itself (a source's bad input under the {@code fail} policy, a receiver that
 * stopped) are not the user's exceptions, and stay a {@link StreamingException}, as does anything else.
 */
final class BatchFailure {
    private BatchFailure() {
    }

    static Throwable asThrown(Throwable error) {
        OperatorException named = operatorFailure(error);
        if (named == null || named.getCause() == null) {
            return new StreamingException(error.getMessage(), error);
        }
        Throwable cause = named.getCause();
        if (cause instanceof SparkException) {
            return new SparkException(named.getMessage(), cause);
        }
        if (cause.getClass().getName().startsWith("io.sluice.")) {
            return new StreamingException(named.getMessage(), named); // the engine's own (bad input under fail)
        }
        synchronized (cause) { // awaitTermination may be called again, from several threads: name it once
            boolean alreadyNamed = false;
            for (Throwable s : cause.getSuppressed()) {
                alreadyNamed |= s instanceof StreamingException && named.getMessage().equals(s.getMessage());
            }
            if (!alreadyNamed) {
                cause.addSuppressed(new StreamingException(named.getMessage(), null));
            }
        }
        return cause;
    }

    private static OperatorException operatorFailure(Throwable error) {
        for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof OperatorException o) {
                return o;
            }
        }
        return null;
    }

    /** Throws {@code error} as it is, checked or not (Scala's rethrow, which Spark Streaming's callers get). */
    @SuppressWarnings("unchecked")
    static <E extends Throwable> RuntimeException rethrow(Throwable error) throws E {
        throw (E) error;
    }
}
