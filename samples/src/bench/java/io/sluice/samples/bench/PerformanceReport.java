package io.sluice.samples.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes the benchmark table into docs/performance.md. A run replaces the rows of the workloads it measured
 * and keeps the others, so workloads can be measured separately; everything from the "## Notes" heading on is
 * kept as written by hand.
 */
final class PerformanceReport {
    static final String COMMAND = "mvn -B -q -Pbenchmark -pl samples -am verify -DskipTests";
    private static final String NOTES = "## Notes";
    private static final String[] HEADER = {"workload", "pipeline", "figure", "Sluice", "Spark Streaming 4.2.0",
        "ratio", "target", "result", "measured on"};

    private PerformanceReport() {
    }

    static void update(Path file, List<Row> rows, Machine machine) throws IOException {
        Map<String, String> lines = new LinkedHashMap<>();
        String notes = NOTES + "\n";
        if (Files.exists(file)) {
            String old = Files.readString(file, StandardCharsets.UTF_8);
            int at = old.indexOf(NOTES);
            if (at >= 0) {
                notes = old.substring(at);
            }
            for (String line : (at >= 0 ? old.substring(0, at) : old).split("\n")) {
                String id = rowId(line);
                if (id != null) {
                    lines.put(id, line);
                }
            }
        }
        for (Row row : rows) {
            lines.put(row.workload().id(), tableLine(append(row.cells(), machine.toString())));
        }
        StringBuilder out = new StringBuilder();
        out.append("# Performance: Sluice against Spark Streaming 4.2.0\n\n")
                .append("Written by the benchmark (`").append(COMMAND).append("`, see [benchmark.md](benchmark.md));")
                .append(" workloads and settings as in benchmark.md: ").append(BenchSettings.STANDARD)
                .append(", 4 GB heap, each side in its own JVM. Ratio = Sluice / Spark Streaming, except")
                .append(" W7's, which compare Sluice with itself (1M / 100k keys of state, 2 / 1 executors), and W2f's and W2r's,")
                .append(" whose baseline is Flink 2.3.0 (its figure is in the Spark Streaming column, named). Each row is the")
                .append(" latest full run of that workload; the machine is shared, so compare rows measured together.")
                .append("\n\n")
                .append(tableLine(HEADER)).append('\n')
                .append(tableLine(separator(HEADER.length))).append('\n');
        for (String id : ordered(lines)) {
            out.append(lines.get(id)).append('\n');
        }
        out.append('\n').append(notes);
        Files.createDirectories(file.getParent());
        Files.writeString(file, out.toString(), StandardCharsets.UTF_8);
    }

    /** Registered workloads in registry order, then any others the file had. */
    private static List<String> ordered(Map<String, String> lines) {
        List<String> ids = new ArrayList<>();
        for (String id : Workloads.ids()) {
            if (lines.containsKey(id)) {
                ids.add(id);
            }
        }
        lines.keySet().stream().filter(id -> !ids.contains(id)).forEach(ids::add);
        return ids;
    }

    private static String rowId(String line) {
        if (!line.startsWith("| ")) {
            return null;
        }
        String id = line.substring(2, line.indexOf(" |", 1) < 0 ? 2 : line.indexOf(" |", 1)).trim();
        return id.isEmpty() || id.equals(HEADER[0]) || id.startsWith("---") ? null : id;
    }

    static String tableLine(String[] cells) {
        return "| " + String.join(" | ", cells) + " |";
    }

    private static String[] separator(int n) {
        String[] cells = new String[n];
        java.util.Arrays.fill(cells, "---");
        return cells;
    }

    private static String[] append(String[] cells, String last) {
        String[] all = java.util.Arrays.copyOf(cells, cells.length + 1);
        all[cells.length] = last;
        return all;
    }
}
