package io.sluice.samples.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How a forked side ended: its measurement, or why it failed (null when it did not), after how many seconds, and
 * its log.
 */
record Forked(Measurement measurement, String failure, double seconds, Path log) {
    private static final Pattern THROWABLE = Pattern.compile("(?:^|\\s)((?:[a-z_$][\\w$]*\\.)+[A-Z][\\w$]*"
            + "(?:Exception|Error)(?::.*)?)$");

    /** The prefix of the line where {@link SideRunner} prints why the side failed. */
    static final String FAILED = "side failed: ";
    private static final Pattern CAUSE = Pattern.compile("(?:[a-z_$][\\w$]*\\.)+[A-Z][\\w$]*(?:Exception|Error): ");

    /**
     * The reason a side's JVM failed, from its log: an OutOfMemoryError wherever it was reported (Spark logs it
     * from a task, then exits), else the line SideRunner printed (tasks still stopping may log exceptions after
     * it), else the last exception the JVM printed, with its message, else the exit code.
     */
    static String failureIn(Path log, int exitCode) {
        List<String> lines;
        try {
            lines = Files.readAllLines(log);
        } catch (IOException e) {
            throw new UncheckedIOException("reading " + log, e);
        }
        String last = null;
        String printed = null;
        for (String line : lines) {
            if (line.startsWith(FAILED)) {
                printed = line.substring(FAILED.length());
                continue;
            }
            Matcher m = THROWABLE.matcher(line.strip());
            if (m.find()) {
                String throwable = m.group(1).replaceFirst("^java\\.lang\\.", "");
                if (throwable.startsWith("OutOfMemoryError")) {
                    return throwable;
                }
                last = throwable;
            }
        }
        if (printed != null) {
            return printed;
        }
        return last != null ? last : "exit " + exitCode + " without a measurement";
    }

    /**
     * The innermost exception named in the first line of {@code reason} (a failure's text, which names each
     * cause after its wrapper's message), from its class on: the cause a user acts on.
     */
    static String innermost(String reason) {
        String first = reason.lines().findFirst().orElse("");
        Matcher m = CAUSE.matcher(first);
        int start = 0;
        while (m.find()) {
            start = m.start();
        }
        return first.substring(start).replaceFirst("^java\\.lang\\.", "");
    }
}
