package io.sluice.recovery.internal.wal;

import io.sluice.rdd.BatchGrid;
import io.sluice.rdd.Time;
import io.sluice.recovery.internal.HadoopFiles;
import java.io.DataInputStream;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A write-ahead log in a directory of any Hadoop file system: records go to rolling segment files (see
 * {@link SegmentName} and {@link SegmentFormat}), each record length-prefixed and checksummed, and synced
 * (fsync where the file system can, else hflush) before {@link #write} returns.
 *
 * <p>A segment is never appended to after it was closed or after a restart: a new writer starts a new
 * segment, so a torn record can only be the last one of a segment, and {@link #readAll} skips it with a
 * warning. A bad record followed by more data is real damage, and reading fails naming the file and offset.
 */
public final class FileWriteAheadLog implements WriteAheadLog {
    private static final Logger LOG = LoggerFactory.getLogger(FileWriteAheadLog.class);

    /** How segments roll: at most {@code rollingInterval} of record time and about {@code maxSegmentBytes}. */
    public record Settings(Duration rollingInterval, long maxSegmentBytes) {
        public static final Settings DEFAULT = new Settings(Duration.ofMinutes(1), 64L << 20);

        public Settings {
            if (rollingInterval == null || rollingInterval.toMillis() < 1) {
                throw new IllegalArgumentException("the write-ahead log's rolling interval must be at least 1 ms, was "
                        + rollingInterval);
            }
            if (maxSegmentBytes < SegmentFormat.HEADER_BYTES + SegmentFormat.RECORD_OVERHEAD) {
                throw new IllegalArgumentException("maxSegmentBytes too small: " + maxSegmentBytes);
            }
        }
    }

    private final FileSystem fs;
    private final Path directory;
    private final Settings settings;
    private long nextSequence;
    private SegmentName current;
    private FSDataOutputStream out;
    private long position;
    private boolean closed;

    private FileWriteAheadLog(FileSystem fs, Path directory, Settings settings) throws IOException {
        this.fs = fs;
        this.directory = directory;
        this.settings = settings;
        fs.mkdirs(directory);
        this.nextSequence = segments().stream().mapToLong(SegmentName::sequence).max().orElse(-1) + 1;
    }

    /** Opens (creating if needed) the log in {@code directory}, a local path or a Hadoop file system URI. */
    public static FileWriteAheadLog open(String directory, Configuration conf, Settings settings) throws IOException {
        Path dir = new Path(directory);
        return new FileWriteAheadLog(HadoopFiles.fileSystem(dir, conf), dir, settings);
    }

    public static FileWriteAheadLog open(String directory, Configuration conf) throws IOException {
        return open(directory, conf, Settings.DEFAULT);
    }

    /**
     * Logs {@code record}. A write into a segment already open that fails (on HDFS: a DataNode of the segment's
     * write pipeline died and no other could take its place) is tried once more in a fresh segment, which gets a
     * new pipeline of live DataNodes; the failed segment is abandoned, so its possibly torn record stays its last.
     */
    @Override
    public synchronized RecordHandle write(byte[] record, Time time) throws IOException {
        ensureOpen();
        byte[] bytes = SegmentFormat.encode(record, time.milliseconds());
        boolean fresh = current == null || !current.holds(time.milliseconds())
                || (position > SegmentFormat.HEADER_BYTES && position + bytes.length > settings.maxSegmentBytes());
        if (fresh) {
            roll(time);
        }
        try {
            return append(bytes, record.length);
        } catch (IOException e) {
            String failed = current.fileName();
            abandonSegment(); // its tail may be torn now; the next write starts a fresh segment
            if (fresh) {
                throw failure(time, e);
            }
            LOG.warn("Could not log a record of batch {} to segment {} of {} ({}); writing it to a new segment",
                    time, failed, directory, e.toString());
        }
        try {
            roll(time);
            return append(bytes, record.length);
        } catch (IOException e) {
            abandonSegment();
            throw failure(time, e);
        }
    }

    private RecordHandle append(byte[] bytes, int recordLength) throws IOException {
        out.write(bytes);
        HadoopFiles.sync(out);
        RecordHandle handle = new RecordHandle(current.fileName(), position, recordLength);
        position += bytes.length;
        return handle;
    }

    private IOException failure(Time time, IOException e) {
        return new IOException("could not log a record of batch " + time + " to " + directory + ": " + e, e);
    }

    private void roll(Time time) throws IOException {
        closeSegment();
        long start = BatchGrid.ofEpoch(settings.rollingInterval()).floor(time).milliseconds();
        SegmentName next = new SegmentName(start, start + settings.rollingInterval().toMillis(), nextSequence++);
        FSDataOutputStream stream = fs.create(new Path(directory, next.fileName()), false);
        try {
            stream.write(SegmentFormat.header());
            HadoopFiles.sync(stream);
        } catch (IOException e) {
            stream.close();
            throw e;
        }
        current = next;
        out = stream;
        position = SegmentFormat.HEADER_BYTES;
    }

    @Override
    public synchronized byte[] read(RecordHandle handle) throws IOException {
        ensureOpen();
        SegmentName segment = SegmentName.parse(handle.segment()).orElseThrow(() -> new IOException(
                "record handle " + handle.encode() + " does not point into a file write-ahead log"));
        Path file = new Path(directory, segment.fileName());
        if (!fs.exists(file)) {
            throw new IOException("write-ahead log segment " + file + " no longer exists (cleaned): cannot read "
                    + handle.encode());
        }
        try (FSDataInputStream in = fs.open(file)) {
            long fileLength = HadoopFiles.readableLength(fs, file, in);
            in.seek(handle.offset());
            SegmentFormat.Read read = SegmentFormat.readRecord(new DataInputStream(in), fileLength - handle.offset());
            if (read == null || read.data().length != handle.length()) {
                throw new IOException("no record of " + handle.length() + " bytes at offset " + handle.offset()
                        + " of write-ahead log segment " + file);
            }
            if (!read.checksumOk()) {
                throw new IOException("the record at offset " + handle.offset() + " of write-ahead log segment "
                        + file + " fails its checksum");
            }
            return read.data();
        }
    }

    @Override
    public synchronized List<LoggedRecord> readAll() throws IOException {
        ensureOpen();
        List<LoggedRecord> all = new ArrayList<>();
        for (SegmentName segment : segments()) {
            readSegment(segment, all);
        }
        return all;
    }

    private void readSegment(SegmentName segment, List<LoggedRecord> into) throws IOException {
        Path file = new Path(directory, segment.fileName());
        try (FSDataInputStream raw = fs.open(file)) {
            long length = HadoopFiles.readableLength(fs, file, raw);
            DataInputStream in = new DataInputStream(raw);
            if (SegmentFormat.readHeader(in, file.toString()) < 0) {
                LOG.warn("Write-ahead log segment {} ends inside its header (a crash while it was created); "
                        + "it holds no record", file);
                return;
            }
            long offset = SegmentFormat.HEADER_BYTES;
            while (offset < length) {
                SegmentFormat.Read read = SegmentFormat.readRecord(in, length - offset);
                if (read == null) {
                    LOG.warn("Write-ahead log segment {} ends with a torn record at offset {} ({} bytes, written "
                            + "by a crash before it was acknowledged); ignoring it", file, offset, length - offset);
                    return;
                }
                long end = offset + SegmentFormat.RECORD_OVERHEAD + read.data().length;
                if (!read.checksumOk()) {
                    if (end == length) {
                        LOG.warn("The last record of write-ahead log segment {} (offset {}) fails its checksum "
                                + "(torn by a crash before it was acknowledged); ignoring it", file, offset);
                        return;
                    }
                    throw new IOException("the record at offset " + offset + " of write-ahead log segment " + file
                            + " fails its checksum and more records follow it: the file is damaged. Move the "
                            + "segment out of " + directory + " to recover without the records it holds");
                }
                into.add(new LoggedRecord(new Time(read.timeMillis()),
                        new RecordHandle(segment.fileName(), offset, read.data().length), read.data()));
                offset = end;
            }
        }
    }

    @Override
    public synchronized void clean(Time threshold) throws IOException {
        ensureOpen();
        if (current != null && current.end() <= threshold.milliseconds()) {
            closeSegment();
        }
        for (SegmentName segment : segments()) {
            if (segment.end() <= threshold.milliseconds()) {
                fs.delete(new Path(directory, segment.fileName()), false);
            }
        }
    }

    @Override
    public synchronized void close() throws IOException {
        if (!closed) {
            closed = true;
            closeSegment();
        }
    }

    /** The segment files in the directory, in the order they were created. */
    private List<SegmentName> segments() throws IOException {
        List<SegmentName> found = new ArrayList<>();
        for (FileStatus status : fs.listStatus(directory)) {
            Optional<SegmentName> name = SegmentName.parse(status.getPath().getName());
            name.ifPresent(found::add);
        }
        found.sort(Comparator.comparingLong(SegmentName::sequence));
        return found;
    }

    private void closeSegment() throws IOException {
        if (out != null) {
            try {
                out.close();
            } finally {
                out = null;
                current = null;
            }
        }
    }

    private void abandonSegment() {
        try {
            closeSegment();
        } catch (IOException e) {
            LOG.warn("Closing a failed write-ahead log segment in {} failed too", directory, e);
        }
    }

    private void ensureOpen() throws IOException {
        if (closed) {
            throw new IOException("the write-ahead log in " + directory + " is closed");
        }
    }
}
