package io.sluice.dstream.source.internal.file;

import io.sluice.rdd.BatchTimeMap;
import io.sluice.rdd.Time;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Decides which files each batch of a file stream reads, so that every file is read exactly once, also across
 * driver restarts, and never while it is still being written. Pure logic over listings (no file system, no
 * Spark), so it is tested directly.
 *
 * <p>Batch t takes the files of the directory's listing at t that no earlier batch took, that are newer than
 * the start when only new files are wanted, that were not modified after t, and, when {@code minFileAge} is set,
 * that are stable: not modified for {@code minFileAge} or unchanged (length and modification time) since the
 * previous batch's listing. With the default of 0 a file is taken by the first batch at or after its modification
 * time, as Spark Streaming takes it (files are to be moved into the directory when complete); with an age, a
 * file written in place waits until it stops changing. Names of files in progress ({@code _COPYING_}, hidden,
 * temporary) are ignored by the caller.
 *
 * <p>The taken set is the source's saved position: {@link #positionAfter} writes the files of batch t and, for the
 * newest batch selected, every file taken up to it, in a versioned text form; {@link #restore} reads positions back
 * after a restart, the taken set as the union of all. A checkpoint saves the position of every batch a restart may
 * run again (as many as a state checkpoint interval or a window spans), and the newest one's taken set holds every
 * other's: repeated in each, it made a checkpoint's size the number of its batches times the directory's files
 * (640 KB a checkpoint at 50 ms batches over a directory of 60 files). A file that leaves the directory is
 * forgotten, which keeps the taken set as small as the directory.
 */
public final class FileSelection {
    private static final String VERSION = "files-v1";

    private final long minFileAgeMillis;
    private volatile long ignoreUpTo;
    private final Map<String, Time> taken = new HashMap<>();
    private final BatchTimeMap<List<FileEntry>> batches = new BatchTimeMap<>();
    private Map<String, FileEntry> previousListing = Map.of();

    /** @param ignoreUpTo files modified at or before this time are never taken (Long.MIN_VALUE: none ignored) */
    public FileSelection(long minFileAgeMillis, long ignoreUpTo) {
        this.minFileAgeMillis = minFileAgeMillis;
        this.ignoreUpTo = ignoreUpTo;
    }

    /** Ignores files modified at or before {@code time} (only new files wanted); set at start. */
    public void ignoreUpTo(long time) {
        this.ignoreUpTo = time;
    }

    /** The files of batch {@code time}, choosing them from {@code listing} unless the batch chose already. */
    public synchronized List<FileEntry> select(Time time, List<FileEntry> listing) {
        Optional<List<FileEntry>> chosen = batches.get(time);
        if (chosen.isPresent()) {
            return chosen.get();
        }
        Map<String, FileEntry> now = new HashMap<>();
        List<FileEntry> result = new ArrayList<>();
        for (FileEntry f : listing) {
            now.put(f.path(), f);
            if (taken.containsKey(f.path()) || f.modificationTime() <= ignoreUpTo
                    || f.modificationTime() > time.milliseconds()) {
                continue;
            }
            boolean settled = f.modificationTime() <= time.milliseconds() - minFileAgeMillis;
            boolean unchanged = f.equals(previousListing.get(f.path()));
            if (settled || unchanged) {
                result.add(f);
                taken.put(f.path(), time);
            }
        }
        taken.keySet().removeIf(p -> !now.containsKey(p) && !isInRememberedBatch(p));
        previousListing = now;
        result.sort((a, b) -> a.path().compareTo(b.path()));
        List<FileEntry> fixed = List.copyOf(result);
        batches.put(time, fixed);
        return fixed;
    }

    private boolean isInRememberedBatch(String path) {
        for (List<FileEntry> files : batches.values()) {
            for (FileEntry f : files) {
                if (f.path().equals(path)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Forgets the file lists of batches up to {@code time} (they stay in the taken set). */
    public void forgetBatchesUpTo(Time time) {
        batches.forgetThrough(time);
    }

    public synchronized int takenCount() {
        return taken.size();
    }

    /**
     * The position after batch {@code time}: its files, and every file taken up to it if it is the newest batch
     * selected; null if unknown.
     */
    public synchronized String positionAfter(Time time) {
        List<FileEntry> files = batches.get(time).orElse(null);
        if (files == null) {
            return null;
        }
        StringBuilder out = new StringBuilder(VERSION).append('\n');
        out.append("ignoreUpTo ").append(ignoreUpTo).append('\n');
        for (FileEntry f : files) {
            out.append("batch ").append(f.length()).append(' ').append(f.modificationTime()).append(' ')
                    .append(encode(f.path())).append('\n');
        }
        if (batches.newest().map(newest -> newest.getKey().isAfter(time)).orElse(false)) {
            return out.toString();
        }
        TreeMap<String, Time> sorted = new TreeMap<>(taken);
        sorted.forEach((path, t) -> {
            if (!t.isAfter(time)) {
                out.append("taken ").append(t.milliseconds()).append(' ').append(encode(path)).append('\n');
            }
        });
        return out.toString();
    }

    /** Restores the positions saved after a restart (oldest first): batches to run again get their old files. */
    public synchronized void restore(NavigableMap<Time, String> positions) {
        for (Map.Entry<Time, String> e : positions.entrySet()) {
            List<FileEntry> files = new ArrayList<>();
            String[] lines = e.getValue().split("\n");
            if (lines.length == 0 || !lines[0].equals(VERSION)) {
                throw new IllegalArgumentException("not a file stream position of format " + VERSION + ": '"
                        + (lines.length == 0 ? "" : lines[0]) + "'");
            }
            for (int i = 1; i < lines.length; i++) {
                String[] parts = lines[i].split(" ");
                if (parts[0].equals("ignoreUpTo")) {
                    ignoreUpTo = Long.parseLong(parts[1]);
                } else if (parts[0].equals("batch")) {
                    files.add(new FileEntry(decode(parts[3]), Long.parseLong(parts[1]), Long.parseLong(parts[2])));
                } else if (parts[0].equals("taken")) {
                    taken.put(decode(parts[2]), new Time(Long.parseLong(parts[1])));
                } else {
                    throw new IllegalArgumentException("unexpected line in a file stream position: '" + lines[i] + "'");
                }
            }
            batches.put(e.getKey(), List.copyOf(files));
            files.forEach(f -> taken.put(f.path(), e.getKey()));
        }
    }

    private static String encode(String path) {
        return URLEncoder.encode(path, StandardCharsets.UTF_8);
    }

    private static String decode(String text) {
        return URLDecoder.decode(text, StandardCharsets.UTF_8);
    }
}
