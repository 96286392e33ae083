package io.sluice.samples.soak;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * The soak's table: one column per mark (batch 1,000, 5,000, 10,000), one row per measure, and the change from
 * the first mark to the last. A measure is flat when it changed by at most {@link #TOLERANCE} of its first value;
 * the verdict names every measure that was not.
 */
public final class SoakReport {
    public static final double TOLERANCE = 0.10;

    private record Row(String name, ToDoubleFunction<SoakSample> value, String format) {
    }

    private static final List<Row> ROWS = List.of(
            new Row("heap after full GC (MB)", s -> s.heapAfterGcBytes() / 1e6, "%.1f"),
            new Row("live threads", SoakSample::threads, "%.0f"),
            new Row("open file descriptors", SoakSample::openFiles, "%.0f"),
            new Row("checkpoint directory (KB)", s -> s.checkpointBytes() / 1e3, "%.1f"),
            new Row("checkpoint files", SoakSample::checkpointFiles, "%.0f"),
            new Row("remembered RDDs", SoakSample::rememberedRdds, "%.0f"),
            new Row("persisted RDDs", SoakSample::persistedRdds, "%.0f"),
            new Row("cached blocks", SoakSample::cachedBlocks, "%.0f"));

    private final List<Long> marks = new ArrayList<>();
    private final List<SoakSample> samples = new ArrayList<>();

    public void add(long batch, SoakSample sample) {
        marks.add(batch);
        samples.add(sample);
    }

    public boolean isEmpty() {
        return samples.isEmpty();
    }

    /** The measures that changed by more than the tolerance from the first mark to the last (empty: flat). */
    public List<String> notFlat() {
        List<String> changed = new ArrayList<>();
        if (samples.size() < 2) {
            return List.of("fewer than two marks measured");
        }
        for (Row row : ROWS) {
            double change = change(row);
            if (Double.isNaN(change) || Math.abs(change) > TOLERANCE) {
                changed.add(row.name + (Double.isNaN(change) ? " (from 0)" : String.format(Locale.ROOT, " (%+.0f%%)",
                        change * 100)));
            }
        }
        return changed;
    }

    private double change(Row row) {
        double first = row.value.applyAsDouble(samples.get(0));
        double last = row.value.applyAsDouble(samples.get(samples.size() - 1));
        if (first == last) {
            return 0;
        }
        return first == 0 ? Double.NaN : (last - first) / first;
    }

    /** The table in Markdown, then the verdict. */
    public String table() {
        StringBuilder out = new StringBuilder("| at batch |");
        marks.forEach(m -> out.append(String.format(Locale.ROOT, " %,d |", m)));
        out.append(" change |\n|---|");
        marks.forEach(m -> out.append("---:|"));
        out.append("---:|\n");
        for (Row row : ROWS) {
            out.append("| ").append(row.name).append(" |");
            for (SoakSample s : samples) {
                out.append(' ').append(String.format(Locale.ROOT, row.format, row.value.applyAsDouble(s))).append(" |");
            }
            double change = change(row);
            out.append(Double.isNaN(change) ? " from 0" : String.format(Locale.ROOT, " %+.1f%%", change * 100))
                    .append(" |\n");
        }
        List<String> notFlat = notFlat();
        out.append('\n').append(notFlat.isEmpty()
                ? String.format(Locale.ROOT, "verdict: flat (every measure within %.0f%% from batch %,d to %,d)",
                        TOLERANCE * 100, marks.get(0), marks.get(marks.size() - 1))
                : "verdict: NOT flat: " + String.join(", ", notFlat));
        return out.toString();
    }
}
