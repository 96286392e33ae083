package io.sluice.recovery.internal;

import static java.nio.charset.StandardCharsets.UTF_8;

import io.sluice.rdd.Time;
import io.sluice.recovery.UnusableCheckpointException;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.zip.CRC32C;

/**
 * The bytes of a checkpoint file: UTF-8 text, one fact per line, readable with {@code cat}, written and
 * parsed here (no Java serialization, no class names). Version 1:
 *
 * <pre>
 * sluice-checkpoint 1
 * batch-time 1700000003000
 * batch-interval 1000
 * zero-time 1700000000000
 * next-batch-time 1700000005000
 * pending 1700000004000                          (one line per pending batch)
 * operator &lt;id&gt; &lt;kind&gt;                           (every operator of the graph)
 * source &lt;id&gt; &lt;batch ms&gt; &lt;position&gt;
 * state &lt;id&gt; &lt;description&gt;                      (an {@link OperatorRecord}: its writer's text)
 * file &lt;id&gt; &lt;label&gt; &lt;length&gt; &lt;path&gt;                (one per data file of the record, the label its writer's)
 * crc32c 0a1b2c3d                                (CRC-32C of every byte before this line)
 * </pre>
 *
 * Recovery reads a record's description and file labels as opaque text: the state layer writes
 * {@code <kind> <batch ms> <partitions> <key groups>} and {@code <partition> <batch ms> full|delta|table} there
 * (see the state module's {@code SavedState}), so the lines are the same as before records were
 * opaque, and checkpoints written by earlier releases read unchanged. The line keyword stays {@code state}
 * for that reason. Ids, kinds and positions are percent-encoded, so they may hold any character. A reader refuses a file
 * whose version is newer than its own, whose checksum line is missing (truncated) or wrong, or that holds
 * anything it does not understand.
 */
public final class CheckpointFormat {
    public static final int VERSION = 1;
    static final String MAGIC = "sluice-checkpoint";

    private CheckpointFormat() {
    }

    public static byte[] encode(Checkpoint c) {
        StringBuilder out = new StringBuilder();
        out.append(MAGIC).append(' ').append(VERSION).append('\n');
        line(out, "batch-time", c.batchTime().milliseconds());
        line(out, "batch-interval", c.batchInterval().toMillis());
        line(out, "zero-time", c.zeroTime().milliseconds());
        line(out, "next-batch-time", c.nextBatchTime().milliseconds());
        for (Time t : c.pending()) {
            line(out, "pending", t.milliseconds());
        }
        c.operators().forEach((id, kind) -> line(out, "operator", enc(id), enc(kind)));
        for (Checkpoint.SourcePosition p : c.sources()) {
            line(out, "source", enc(p.operatorId()), p.time().milliseconds(), enc(p.position()));
        }
        for (OperatorRecord r : c.records()) {
            line(out, "state", enc(r.operatorId()), r.description());
            for (OperatorRecord.DataFile f : r.files()) {
                line(out, "file", enc(r.operatorId()), f.label(), f.length(), f.path());
            }
        }
        byte[] body = out.toString().getBytes(UTF_8);
        String trailer = String.format(Locale.ROOT, "crc32c %08x\n", crc(body, body.length));
        byte[] all = new byte[body.length + trailer.length()];
        System.arraycopy(body, 0, all, 0, body.length);
        System.arraycopy(trailer.getBytes(UTF_8), 0, all, body.length, trailer.length());
        return all;
    }

    /** Parses a checkpoint file; {@code file} names it in errors. */
    public static Checkpoint decode(byte[] bytes, String file) throws UnusableCheckpointException {
        if (bytes.length == 0) {
            throw new UnusableCheckpointException(file, "it is empty");
        }
        String text = new String(bytes, UTF_8);
        int firstEnd = text.indexOf('\n');
        String first = firstEnd < 0 ? text : text.substring(0, firstEnd);
        String[] header = first.split(" ");
        if (header.length != 2 || !header[0].equals(MAGIC)) {
            throw new UnusableCheckpointException(file, "it does not start with '" + MAGIC + " <version>'");
        }
        int version;
        try {
            version = Integer.parseInt(header[1]);
        } catch (NumberFormatException e) {
            throw new UnusableCheckpointException(file, "its format version '" + header[1] + "' is not a number");
        }
        if (version > VERSION) {
            throw new UnusableCheckpointException(file, "it has format version " + version + ", newer than this "
                    + "Sluice's " + VERSION + " (written by a newer release; upgrade Sluice to read it)");
        }
        int trailerStart = text.lastIndexOf("\ncrc32c ") + 1;
        if (trailerStart <= 0 || !text.endsWith("\n")) {
            throw new UnusableCheckpointException(file, "its checksum line is missing (the file is truncated)");
        }
        int bodyLength = text.substring(0, trailerStart).getBytes(UTF_8).length;
        String expected = String.format(Locale.ROOT, "crc32c %08x\n", crc(bytes, bodyLength));
        if (!text.substring(trailerStart).equals(expected)) {
            throw new UnusableCheckpointException(file, "it fails its checksum (the file is damaged)");
        }
        try {
            return parse(text.substring(firstEnd + 1, trailerStart).split("\n"));
        } catch (RuntimeException e) {
            throw new UnusableCheckpointException(file, "it cannot be parsed: " + e.getMessage());
        }
    }

    private static Checkpoint parse(String[] lines) {
        Map<String, Long> scalars = new HashMap<>();
        List<Time> pending = new ArrayList<>();
        Map<String, String> operators = new LinkedHashMap<>();
        List<Checkpoint.SourcePosition> sources = new ArrayList<>();
        Map<String, String> records = new LinkedHashMap<>();
        Map<String, List<OperatorRecord.DataFile>> files = new HashMap<>();
        for (String line : lines) {
            String[] f = line.split(" ", -1);
            switch (f[0]) {
                case "batch-time", "batch-interval", "zero-time", "next-batch-time" -> {
                    expect(f, 2);
                    if (scalars.put(f[0], Long.parseLong(f[1])) != null) {
                        throw new IllegalArgumentException("'" + f[0] + "' appears twice");
                    }
                }
                case "pending" -> {
                    expect(f, 2);
                    pending.add(new Time(Long.parseLong(f[1])));
                }
                case "operator" -> {
                    expect(f, 3);
                    operators.put(dec(f[1]), dec(f[2]));
                }
                case "source" -> {
                    expect(f, 4);
                    sources.add(new Checkpoint.SourcePosition(dec(f[1]), new Time(Long.parseLong(f[2])), dec(f[3])));
                }
                case "state" -> {
                    String[] r = line.split(" ", 3);
                    expect(r, 3);
                    if (records.put(dec(r[1]), r[2]) != null) {
                        throw new IllegalArgumentException("two records of '" + dec(r[1]) + "'");
                    }
                }
                case "file" -> {
                    if (f.length < 5) {
                        throw new IllegalArgumentException("'file' needs an id, a label, a length and a path");
                    }
                    String label = String.join(" ", java.util.Arrays.copyOfRange(f, 2, f.length - 2));
                    files.computeIfAbsent(dec(f[1]), k -> new ArrayList<>()).add(new OperatorRecord.DataFile(
                            label, Long.parseLong(f[f.length - 2]), f[f.length - 1]));
                }
                default -> throw new IllegalArgumentException("unknown line '" + line + "'");
            }
        }
        List<OperatorRecord> recordList = new ArrayList<>();
        records.forEach((id, description) ->
                recordList.add(new OperatorRecord(id, description, files.getOrDefault(id, List.of()))));
        if (!records.keySet().containsAll(files.keySet())) {
            throw new IllegalArgumentException("files listed for an operator without a 'state' line");
        }
        return new Checkpoint(new Time(required(scalars, "batch-time")),
                Duration.ofMillis(required(scalars, "batch-interval")), new Time(required(scalars, "zero-time")),
                pending, new Time(required(scalars, "next-batch-time")), operators, sources, recordList);
    }

    private static long required(Map<String, Long> scalars, String key) {
        Long v = scalars.get(key);
        if (v == null) {
            throw new IllegalArgumentException("'" + key + "' is missing");
        }
        return v;
    }

    private static void expect(String[] fields, int n) {
        if (fields.length != n) {
            throw new IllegalArgumentException("'" + fields[0] + "' needs " + (n - 1) + " values, has "
                    + (fields.length - 1));
        }
    }

    private static void line(StringBuilder out, String key, Object... values) {
        out.append(key);
        for (Object v : values) {
            out.append(' ').append(v);
        }
        out.append('\n');
    }

    public static String enc(String s) {
        return URLEncoder.encode(s, UTF_8);
    }

    public static String dec(String s) {
        return URLDecoder.decode(s, UTF_8);
    }

    static int crc(byte[] bytes, int length) {
        CRC32C crc = new CRC32C();
        crc.update(bytes, 0, length);
        return (int) crc.getValue();
    }
}
