package io.sluice.dstream.internal;

import java.util.Set;

/** Where in user code an operator was created, e.g. "map at WordCount.java:42", for errors and the UI. */
public final class CallSite {
    private static final Set<String> API_CLASSES = Set.of(
            "io.sluice.dstream.DStream", "io.sluice.dstream.DStreamLike", "io.sluice.dstream.PairDStream", "io.sluice.dstream.StreamingContext",
            "io.sluice.dstream.StreamingContextBuilder", "io.sluice.dstream.MapWithStateDStream");

    private CallSite() {
    }

    public static String of(String operation) {
        for (StackTraceElement frame : Thread.currentThread().getStackTrace()) {
            String cls = frame.getClassName();
            if (isEngine(cls)) {
                continue;
            }
            return operation + " at " + frame.getFileName() + ":" + frame.getLineNumber();
        }
        return operation;
    }

    private static boolean isEngine(String cls) {
        return cls.startsWith("java.") || cls.startsWith("jdk.") || cls.startsWith("sun.")
                || cls.startsWith("scala.") || cls.startsWith("io.sluice.dstream.internal.")
                || cls.startsWith("io.sluice.state.") || API_CLASSES.contains(cls);
    }
}
