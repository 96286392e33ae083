package io.sluice.dstream;

import io.sluice.rdd.Time;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.concurrent.ConcurrentSkipListMap;
import scala.Tuple2;

/**
 * A stream's output collected per batch on the driver, for notebooks and shells: {@code BatchTable.of(stream)}
 * before the context starts, run batches, then print it. Each record is a row under its batch's time; a pair
 * stream's records print as key and value columns. Keep it to small outputs (each batch is collected).
 */
public final class BatchTable<T> {
    private static final int MAX_ROWS_PER_BATCH = 20;

    private final NavigableMap<Time, List<T>> batches = new ConcurrentSkipListMap<>();

    private BatchTable() {
    }

    /** Collects every batch of {@code stream} from now on (an output operation: call it before the start). */
    public static <T> BatchTable<T> of(DStreamLike<T, ?> stream) {
        BatchTable<T> table = new BatchTable<>();
        stream.foreachRDD((rdd, time) -> table.batches.put(time, List.copyOf(rdd.collect())));
        return table;
    }

    /** The records of every batch collected so far, by batch time. */
    public NavigableMap<Time, List<T>> batches() {
        return java.util.Collections.unmodifiableNavigableMap(batches);
    }

    /** The records of the newest batch collected, or an empty list. */
    public List<T> latest() {
        Map.Entry<Time, List<T>> last = batches.lastEntry();
        return last == null ? List.of() : last.getValue();
    }

    /** The table: one row per record (at most 20 per batch), the batch time on each batch's first row. */
    @Override
    public String toString() {
        boolean pairs = batches.values().stream().flatMap(List::stream).findFirst().orElse(null) instanceof Tuple2;
        List<String[]> rows = new ArrayList<>();
        rows.add(pairs ? new String[] {"batch", "key", "value"} : new String[] {"batch", "record"});
        for (Map.Entry<Time, List<T>> batch : batches.entrySet()) {
            String time = Instant.ofEpochMilli(batch.getKey().milliseconds()).toString();
            List<T> records = batch.getValue();
            if (records.isEmpty()) {
                rows.add(pairs ? new String[] {time, "(none)", ""} : new String[] {time, "(none)"});
            }
            for (int i = 0; i < Math.min(records.size(), MAX_ROWS_PER_BATCH); i++) {
                String at = i == 0 ? time : "";
                rows.add(pairs && records.get(i) instanceof Tuple2<?, ?> t
                        ? new String[] {at, String.valueOf(t._1()), String.valueOf(t._2())}
                        : pairs ? new String[] {at, String.valueOf(records.get(i)), ""}
                        : new String[] {at, String.valueOf(records.get(i))});
            }
            if (records.size() > MAX_ROWS_PER_BATCH) {
                String more = "... " + (records.size() - MAX_ROWS_PER_BATCH) + " more";
                rows.add(pairs ? new String[] {"", more, ""} : new String[] {"", more});
            }
        }
        return format(rows);
    }

    private static String format(List<String[]> rows) {
        int[] widths = new int[rows.get(0).length];
        for (String[] row : rows) {
            for (int c = 0; c < row.length; c++) {
                widths[c] = Math.max(widths[c], row[c].length());
            }
        }
        StringBuilder out = new StringBuilder();
        for (int r = 0; r < rows.size(); r++) {
            String[] row = rows.get(r);
            for (int c = 0; c < row.length; c++) {
                out.append(c == 0 ? "" : " | ").append(String.format("%-" + widths[c] + "s", row[c]));
            }
            out.append(System.lineSeparator());
            if (r == 0) {
                for (int c = 0; c < widths.length; c++) {
                    out.append(c == 0 ? "" : "-+-").append("-".repeat(widths[c]));
                }
                out.append(System.lineSeparator());
            }
        }
        return out.toString().replaceAll(" +(\\R)", "$1");
    }
}
