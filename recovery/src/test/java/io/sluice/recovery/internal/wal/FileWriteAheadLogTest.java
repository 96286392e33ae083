package io.sluice.recovery.internal.wal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.rdd.Time;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileWriteAheadLogTest extends WriteAheadLogContract {
    private static final FileWriteAheadLog.Settings TEN_SECONDS =
            new FileWriteAheadLog.Settings(Duration.ofSeconds(10), 1 << 20);

    @TempDir
    Path dir;

    @Override
    WriteAheadLog newLog() throws IOException {
        return open(TEN_SECONDS);
    }

    private FileWriteAheadLog open(FileWriteAheadLog.Settings settings) throws IOException {
        return FileWriteAheadLog.open(dir.toString(), new Configuration(), settings);
    }

    private List<Path> segments() throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> p.getFileName().toString().startsWith("log-")).sorted().toList();
        }
    }

    @Test
    void recordsSurviveARestartAndANewWriterStartsANewSegment() throws IOException {
        try (FileWriteAheadLog log = open(TEN_SECONDS)) {
            log.write(bytes("a"), new Time(1000));
            log.write(bytes("b"), new Time(2000));
        }
        try (FileWriteAheadLog log = open(TEN_SECONDS)) {
            assertEquals(List.of("1000:a", "2000:b"), texts(log.readAll()));
            log.write(bytes("c"), new Time(3000));
            assertEquals(List.of("1000:a", "2000:b", "3000:c"), texts(log.readAll()));
        }
        assertEquals(2, segments().size());
    }

    @Test
    void segmentsRollByRecordTimeAndBySize() throws IOException {
        try (FileWriteAheadLog log = open(new FileWriteAheadLog.Settings(Duration.ofSeconds(10), 64))) {
            log.write(bytes("a"), new Time(1_000));
            log.write(bytes("b"), new Time(9_000));   // same 10 s window, fits
            log.write(bytes("c"), new Time(12_000));  // next window
            log.write(new byte[40], new Time(13_000)); // would pass 64 bytes
            assertEquals(List.of("1000:a", "9000:b", "12000:c"), texts(log.readAll().subList(0, 3)));
        }
        assertEquals(List.of("log-0-10000-0", "log-10000-20000-1", "log-10000-20000-2"),
                segments().stream().map(p -> p.getFileName().toString()).toList());
    }

    @Test
    void cleanDeletesOnlySegmentsWhoseRecordsAreAllOlder() throws IOException {
        try (FileWriteAheadLog log = open(TEN_SECONDS)) {
            log.write(bytes("a"), new Time(1_000));
            log.write(bytes("b"), new Time(15_000));
            log.clean(new Time(16_000)); // the [10 s, 20 s) segment still holds nothing newer, but is kept whole
            assertEquals(List.of("15000:b"), texts(log.readAll()));
            log.clean(new Time(20_000));
            assertEquals(List.of(), log.readAll());
        }
        assertEquals(List.of(), segments());
    }

    @Test
    void aTornLastRecordIsIgnoredAndTheRestIsRead() throws IOException {
        try (FileWriteAheadLog log = open(TEN_SECONDS)) {
            log.write(bytes("kept"), new Time(1000));
            log.write(bytes("torn-away"), new Time(1000));
        }
        Path segment = segments().get(0);
        try (RandomAccessFile f = new RandomAccessFile(segment.toFile(), "rw")) {
            f.setLength(f.length() - 3);
        }
        try (FileWriteAheadLog log = open(TEN_SECONDS)) {
            assertEquals(List.of("1000:kept"), texts(log.readAll()));
        }
    }

    @Test
    void aTornHeaderOrHalfWrittenLengthIsIgnored() throws IOException {
        try (FileWriteAheadLog log = open(TEN_SECONDS)) {
            log.write(bytes("kept"), new Time(1000));
        }
        Files.write(segments().get(0), new byte[] {0, 0}, java.nio.file.StandardOpenOption.APPEND);
        Files.write(dir.resolve("log-0-10000-7"), new byte[] {0x53, 0x4C});
        try (FileWriteAheadLog log = open(TEN_SECONDS)) {
            assertEquals(List.of("1000:kept"), texts(log.readAll()));
        }
    }

    @Test
    void aLastRecordWithABadChecksumIsTornButADamagedMiddleRecordFailsLoudly() throws IOException {
        RecordHandle first;
        RecordHandle last;
        try (FileWriteAheadLog log = open(TEN_SECONDS)) {
            first = log.write(bytes("first"), new Time(1000));
            last = log.write(bytes("last"), new Time(1000));
        }
        Path segment = segments().get(0);
        flipByte(segment, last.offset() + 13);
        try (FileWriteAheadLog log = open(TEN_SECONDS)) {
            assertEquals(List.of("1000:first"), texts(log.readAll()));
            IOException e = assertThrows(IOException.class, () -> log.read(last));
            assertTrue(e.getMessage().contains("checksum"), e.getMessage());
        }
        flipByte(segment, last.offset() + 13); // repair, then damage the first record
        flipByte(segment, first.offset() + 13);
        try (FileWriteAheadLog log = open(TEN_SECONDS)) {
            IOException e = assertThrows(IOException.class, log::readAll);
            assertTrue(e.getMessage().contains(segment.getFileName().toString()), e.getMessage());
            assertTrue(e.getMessage().contains("offset " + first.offset()), e.getMessage());
            assertArrayEquals(bytes("last"), log.read(last));
        }
    }

    @Test
    void aSegmentOfANewerFormatIsRefused() throws IOException {
        Files.write(dir.resolve("log-0-10000-0"), ByteBuffer.allocate(8).putInt(SegmentFormat.MAGIC).putInt(99).array());
        try (FileWriteAheadLog log = open(TEN_SECONDS)) {
            IOException e = assertThrows(IOException.class, log::readAll);
            assertTrue(e.getMessage().contains("version 99"), e.getMessage());
            log.write(bytes("x"), new Time(1)); // writing goes to a new segment and is not blocked
        }
        assertEquals(2, segments().size());
    }

    @Test
    void worksThroughAFileUri() throws IOException {
        try (FileWriteAheadLog log = FileWriteAheadLog.open(dir.toUri().toString(), new Configuration())) {
            RecordHandle h = log.write(bytes("uri"), new Time(5));
            assertArrayEquals(bytes("uri"), log.read(h));
        }
        try (Stream<Path> files = Files.list(dir)) {
            assertTrue(files.noneMatch(p -> p.getFileName().toString().endsWith(".crc")), "no .crc side files");
        }
    }

    private static void flipByte(Path file, long offset) throws IOException {
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            f.seek(offset);
            int b = f.read();
            f.seek(offset);
            f.write(b ^ 0x40);
        }
    }
}
