package io.sluice.dstream.source.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** LineReader's outcomes per policy, as a table: the line (or none), and its problem (or none). */
class LineReaderTest {
    private static final byte[] INPUT = concat(
            "ok\r\n".getBytes(StandardCharsets.UTF_8),
            new byte[] {'a', (byte) 0xFF, 'b', '\n'},
            "ééééé\n".getBytes(StandardCharsets.UTF_8),          // 10 bytes: cut at 9 is inside the 5th é
            "cut".getBytes(StandardCharsets.UTF_8));              // no newline at the end

    private static List<String> read(boolean lastLineNeedsNewline, boolean repair) throws IOException {
        LineReader reader = new LineReader(new ByteArrayInputStream(INPUT), 9, lastLineNeedsNewline, repair);
        List<String> outcomes = new ArrayList<>();
        for (LineReader.Line line = reader.next(); !line.isEnd(); line = reader.next()) {
            outcomes.add(line.text() + " | " + line.problem());
        }
        return outcomes;
    }

    @Test
    void repairingKeepsEveryLineAndSaysWhatItRepaired() throws IOException {
        assertEquals(List.of(
                "ok | null",
                "a\uFFFDb | line 2 is not valid UTF-8 at byte 2",
                "éééé | line 3 is longer than the maximum of 9 bytes (sluice.input.maxLineLength)",
                "cut | line 4 was cut off: the stream ended after 3 bytes without a newline"), read(true, true));
    }

    @Test
    void notRepairingReturnsOnlyTheProblem() throws IOException {
        assertEquals(List.of(
                "ok | null",
                "null | line 2 is not valid UTF-8 at byte 2",
                "null | line 3 is longer than the maximum of 9 bytes (sluice.input.maxLineLength)",
                "null | line 4 was cut off: the stream ended after 3 bytes without a newline"), read(true, false));
    }

    @Test
    void inAFileALastLineWithoutNewlineIsAnOrdinaryLine() throws IOException {
        assertEquals("cut | null", read(false, true).get(3));
    }

    @Test
    void inSinkModeARepairedLineReachesTheSinkAsValidUtf8() throws IOException {
        LineReader reader = new LineReader(new ByteArrayInputStream(INPUT), 9, true, true);
        PackedLines.Builder pack = new PackedLines.Builder();
        LineReader.LineSink sink = new LineReader.LineSink() {
            @Override
            public void line(byte[] bytes, int off, int len) {
                pack.add(bytes, off, len);
            }

            @Override
            public void flush() {
            }
        };
        List<String> problems = new ArrayList<>();
        for (LineReader.Line line = reader.next(sink); !line.isEnd(); line = reader.next(sink)) {
            if (line.isRepaired()) {
                problems.add(line.problem());
            }
        }
        List<String> lines = new ArrayList<>();
        pack.build().iterator().forEachRemaining(lines::add);
        assertEquals(List.of("ok", "a\uFFFDb", "éééé", "cut"), lines);
        assertEquals(3, problems.size());
    }

    private static byte[] concat(byte[]... parts) {
        java.io.ByteArrayOutputStream all = new java.io.ByteArrayOutputStream();
        for (byte[] p : parts) {
            all.writeBytes(p);
        }
        return all.toByteArray();
    }
}
