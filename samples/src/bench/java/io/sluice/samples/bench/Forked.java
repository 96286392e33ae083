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

    /**
     * The reason a side's JVM failed, from its log: an OutOfMemoryError wherever it was reported (Spark logs it
     * from a task, then exits), else the last exception the JVM printed (SideRunner prints the failure last), with
     * its message, else the exit code.
     */
    static String failureIn(Path log, int exitCode) {
        List<String> lines;
        try {
            lines = Files.readAllLines(log);
        } catch (IOException e) {
            throw new UncheckedIOException("reading " + log, e);
        }
        String last = null;
        for (String line : lines) {
            Matcher m = THROWABLE.matcher(line.strip());
            if (m.find()) {
                String throwable = m.group(1).replaceFirst("^java\\.lang\\.", "");
                if (throwable.startsWith("OutOfMemoryError")) {
                    return throwable;
                }
                last = throwable;
            }
        }
        return last != null ? last : "exit " + exitCode + " without a measurement";
    }
}
