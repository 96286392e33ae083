package io.sluice.recovery.internal.wal;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.sluice.rdd.Time;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What every {@link WriteAheadLog} does; each implementation's test extends this. */
abstract class WriteAheadLogContract {
    /** A fresh, empty log. */
    abstract WriteAheadLog newLog() throws IOException;

    static byte[] bytes(String s) {
        return s.getBytes(UTF_8);
    }

    static List<String> texts(List<LoggedRecord> records) {
        List<String> result = new ArrayList<>();
        for (LoggedRecord r : records) {
            result.add(r.time().milliseconds() + ":" + new String(r.data(), UTF_8));
        }
        return result;
    }

    @Test
    void readsBackEachRecordByItsHandle() throws IOException {
        try (WriteAheadLog log = newLog()) {
            RecordHandle a = log.write(bytes("alpha"), new Time(1000));
            RecordHandle b = log.write(bytes(""), new Time(1000));
            RecordHandle c = log.write(bytes("gamma"), new Time(2000));
            assertArrayEquals(bytes("gamma"), log.read(c));
            assertArrayEquals(bytes("alpha"), log.read(a));
            assertArrayEquals(new byte[0], log.read(b));
            assertEquals(c, RecordHandle.parse(c.encode()));
        }
    }

    @Test
    void readAllGivesEveryRecordInWriteOrderWithItsTime() throws IOException {
        try (WriteAheadLog log = newLog()) {
            log.write(bytes("a"), new Time(1000));
            log.write(bytes("b"), new Time(3000));
            log.write(bytes("c"), new Time(2000)); // a late record keeps its place in write order
            List<LoggedRecord> all = log.readAll();
            assertEquals(List.of("1000:a", "3000:b", "2000:c"), texts(all));
            assertArrayEquals(bytes("b"), log.read(all.get(1).handle()));
        }
    }

    @Test
    void cleanDropsRecordsOlderThanTheThresholdAndKeepsTheRest() throws IOException {
        try (WriteAheadLog log = newLog()) {
            RecordHandle old = log.write(bytes("old"), new Time(1_000));
            log.write(bytes("new"), new Time(500_000));
            log.clean(new Time(400_000));
            assertEquals(List.of("500000:new"), texts(log.readAll()));
            assertThrows(IOException.class, () -> log.read(old));
            log.write(bytes("newer"), new Time(600_000));
            assertEquals(List.of("500000:new", "600000:newer"), texts(log.readAll()));
        }
    }

    @Test
    void aClosedLogRefusesWork() throws IOException {
        WriteAheadLog log = newLog();
        log.close();
        assertThrows(IOException.class, () -> log.write(bytes("x"), new Time(1)));
        assertThrows(IOException.class, log::readAll);
    }

    @Test
    void loggedBytesCannotBeChangedByTheCaller() throws IOException {
        try (WriteAheadLog log = newLog()) {
            byte[] data = bytes("abc");
            RecordHandle h = log.write(data, new Time(1));
            data[0] = 'X';
            log.read(h)[1] = 'Y';
            assertArrayEquals(bytes("abc"), log.read(h));
        }
    }
}
