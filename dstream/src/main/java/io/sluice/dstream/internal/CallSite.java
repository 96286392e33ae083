package io.sluice.dstream.internal;

import java.security.CodeSource;
import java.util.Optional;

/**
 * Where in user code an operator was created, e.g. "map at WordCount.java:42", for errors and the UI: the first
 * frame that is not library code. Every {@code io.sluice} class is Sluice's library (the engine and connectors
 * alike, so a stream a connector's {@code KafkaUtils} creates is named after the user's line), except the test
 * kit's and the samples' classes, which are the user's side, and tests compiled into a Maven test output.
 */
public final class CallSite {
    private static final StackWalker WALKER = StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE);

    private CallSite() {
    }

    public static String of(String operation) {
        Optional<StackWalker.StackFrame> user = WALKER.walk(frames -> frames
                .filter(f -> !isLibrary(f.getDeclaringClass())).findFirst());
        return user.map(f -> operation + " at " + f.getFileName() + ":" + f.getLineNumber()).orElse(operation);
    }

    private static boolean isLibrary(Class<?> c) {
        String cls = c.getName();
        if (cls.startsWith("java.") || cls.startsWith("jdk.") || cls.startsWith("sun.") || cls.startsWith("scala.")) {
            return true;
        }
        return cls.startsWith("io.sluice.") && !cls.startsWith("io.sluice.testkit.")
                && !cls.startsWith("io.sluice.samples.") && !isTest(c);
    }

    private static boolean isTest(Class<?> c) {
        CodeSource source = c.getProtectionDomain().getCodeSource();
        return source != null && source.getLocation() != null
                && source.getLocation().getPath().contains("/test-classes/");
    }
}
