package io.sluice.samples;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A spark-submit command as the README shows it: the code block after a line
 * {@code <!-- spark-submit <name>: SparkSubmitIT runs this command -->}. Tests run what users read, so the two
 * cannot drift apart: a {@code <placeholder>} is filled in by the test (the Master's URL, a directory, a broker),
 * everything else is taken as written.
 */
record ReadmeCommand(String name, List<String> words) {
    private static final String SUBMIT = "$SPARK_HOME/bin/spark-submit";
    private static final Pattern PLACEHOLDER = Pattern.compile("<([a-z-]+)>");

    static ReadmeCommand read(Path readme, String name) throws IOException {
        List<String> lines = Files.readAllLines(readme);
        String marker = "<!-- spark-submit " + name + ": SparkSubmitIT runs this command -->";
        int at = lines.indexOf(marker);
        if (at < 0 || at + 2 >= lines.size() || !lines.get(at + 1).startsWith("```")) {
            throw new AssertionError(readme + " has no line '" + marker + "' followed by a code block");
        }
        StringBuilder text = new StringBuilder();
        for (int i = at + 2; !lines.get(i).startsWith("```"); i++) {
            String line = lines.get(i).strip();
            text.append(line.endsWith("\\") ? line.substring(0, line.length() - 1) : line).append(' ');
        }
        List<String> words = List.of(text.toString().trim().split("\\s+"));
        if (!words.get(0).equals(SUBMIT)) {
            throw new AssertionError("the README's " + name + " command does not start with " + SUBMIT + ": " + words);
        }
        return new ReadmeCommand(name, words.subList(1, words.size()));
    }

    /** The value of option {@code option} as written (e.g. {@code --driver-memory}), or {@code fallback}. */
    String option(String option, String fallback) {
        int i = words.indexOf(option);
        return i >= 0 && i + 1 < words.size() ? words.get(i + 1) : fallback;
    }

    /** SparkSubmit's arguments: the words after spark-submit, each placeholder replaced by its value. */
    List<String> arguments(Map<String, String> values) {
        List<String> arguments = new ArrayList<>();
        for (String word : words) {
            Matcher m = PLACEHOLDER.matcher(word);
            StringBuilder filled = new StringBuilder();
            while (m.find()) {
                String value = values.get(m.group(1));
                if (value == null) {
                    throw new AssertionError("the README's " + name + " command has a placeholder <" + m.group(1)
                            + "> the test does not fill in (it knows " + values.keySet() + ")");
                }
                m.appendReplacement(filled, Matcher.quoteReplacement(value));
            }
            m.appendTail(filled);
            arguments.add(filled.toString());
        }
        return arguments;
    }
}
