package io.sluice.recovery.internal.wal;

import io.sluice.rdd.Time;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * A write-ahead log in memory, for tests of what sits on top of a log: same contract as the file log, but
 * nothing survives the JVM. Records are copied in and out, so callers cannot change logged bytes.
 */
public final class InMemoryWriteAheadLog implements WriteAheadLog {
    private static final String SEGMENT = "memory";

    private final NavigableMap<Long, Entry> records = new TreeMap<>();
    private long nextSequence;
    private boolean closed;

    private record Entry(Time time, byte[] data) {
    }

    @Override
    public synchronized RecordHandle write(byte[] record, Time time) throws IOException {
        ensureOpen();
        long sequence = nextSequence++;
        records.put(sequence, new Entry(time, record.clone()));
        return new RecordHandle(SEGMENT, sequence, record.length);
    }

    @Override
    public synchronized byte[] read(RecordHandle handle) throws IOException {
        ensureOpen();
        Entry entry = SEGMENT.equals(handle.segment()) ? records.get(handle.offset()) : null;
        if (entry == null || entry.data.length != handle.length()) {
            throw new IOException("no record at " + handle.encode() + " in the in-memory write-ahead log "
                    + "(cleaned, or from another log)");
        }
        return entry.data.clone();
    }

    @Override
    public synchronized List<LoggedRecord> readAll() throws IOException {
        ensureOpen();
        List<LoggedRecord> all = new ArrayList<>();
        for (Map.Entry<Long, Entry> e : records.entrySet()) {
            byte[] data = e.getValue().data;
            all.add(new LoggedRecord(e.getValue().time, new RecordHandle(SEGMENT, e.getKey(), data.length),
                    data.clone()));
        }
        return all;
    }

    @Override
    public synchronized void clean(Time threshold) throws IOException {
        ensureOpen();
        Iterator<Entry> it = records.values().iterator();
        while (it.hasNext()) {
            if (it.next().time.isBefore(threshold)) {
                it.remove();
            }
        }
    }

    @Override
    public synchronized void close() {
        closed = true;
    }

    private void ensureOpen() throws IOException {
        if (closed) {
            throw new IOException("the write-ahead log is closed");
        }
    }
}
