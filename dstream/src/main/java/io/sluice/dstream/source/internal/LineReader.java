package io.sluice.dstream.source.internal;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Splits a byte stream into UTF-8 lines ({@code \n} or {@code \r\n}) and says exactly what is wrong with a line it
 * cannot return as it is: not valid UTF-8 (and at which byte), longer than the maximum (its bytes past the maximum
 * are skipped up to the next newline, so one huge line cannot exhaust memory), or (for a socket, where it means
 * the server closed mid-line) cut off because the stream ended before its newline. In a file, a last line without
 * a newline is an ordinary line.
 *
 * <p>A reader that repairs returns such a line anyway, with its problem: malformed bytes decoded as U+FFFD
 * exactly as Spark Streaming reads text (a {@code CharsetDecoder} that replaces, as Hadoop's {@code Text} and
 * {@code InputStreamReader} do), an over-long line cut at the last whole character within the maximum, and a cut
 * off line as it came (Spark's {@code readLine} returns it too).
 */
public final class LineReader {
    /**
     * One outcome of {@link #next()}: a line ({@code problem} null), a repaired line (both set; in sink mode the
     * text is empty, the repaired bytes went to the sink), a bad line ({@code text} null), or the end.
     */
    public record Line(String text, String problem, long number) {
        public boolean isEnd() {
            return text == null && problem == null;
        }

        public boolean isRepaired() {
            return text != null && problem != null;
        }
    }

    private final InputStream in;
    private final int maxLength;
    private final boolean lastLineNeedsNewline;
    private final boolean repair;
    private final CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
    private final CharsetDecoder replacing = StandardCharsets.UTF_8.newDecoder()
            .onMalformedInput(CodingErrorAction.REPLACE).onUnmappableCharacter(CodingErrorAction.REPLACE);
    private CharBuffer chars = CharBuffer.allocate(256);
    private final byte[] buf = new byte[64 * 1024];
    private int pos;
    private int limit;
    private byte[] line = new byte[256];
    private long number;
    private long consumed; // bytes read from the stream before the buffer's current content
    private int highBits; // OR of the current line's bytes: no high bit set means plain ASCII

    /** @param repair whether lines with a problem are returned repaired (policy {@code replace}) */
    public LineReader(InputStream in, int maxLength, boolean lastLineNeedsNewline, boolean repair) {
        this.in = in;
        this.maxLength = maxLength;
        this.lastLineNeedsNewline = lastLineNeedsNewline;
        this.repair = repair;
    }

    /** Receives the bytes of valid lines (without the newline), for {@link #next(LineSink)}. */
    public interface LineSink {
        void line(byte[] bytes, int off, int len);

        /** Called before the reader may block waiting for more input: hand over what was collected. */
        void flush();
    }

    private static final Line STORED = new Line("", null, -1);
    private LineSink sink;

    /**
     * As {@link #next()}, but a valid line goes to {@code sink} as bytes (no string is made) and the result
     * only says whether it was stored, bad, or the end.
     */
    public Line next(LineSink sink) throws IOException {
        this.sink = sink;
        try {
            return next();
        } finally {
            this.sink = null;
        }
    }

    /** Whether {@code line} is the marker {@link #next(LineSink)} returns for a line it handed to the sink. */
    public static boolean isStored(Line line) {
        return line == STORED;
    }

    /** The stream position after the last line returned (its newline included): where the next line starts. */
    public long offset() {
        return consumed + pos;
    }

    public Line next() throws IOException {
        int len = 0;
        boolean tooLong = false;
        highBits = 0;
        while (true) {
            if (pos == limit) {
                if (sink != null) {
                    sink.flush();
                }
                consumed += limit;
                limit = in.read(buf, 0, buf.length);
                pos = 0;
                if (limit <= 0) {
                    limit = 0;
                    if (len == 0 && !tooLong) {
                        return new Line(null, null, number);
                    }
                    number++;
                    if (!lastLineNeedsNewline) {
                        return finish(line, 0, len, tooLong);
                    }
                    String cut = "line " + number + " was cut off: the stream ended after " + len
                            + " bytes without a newline";
                    return repair ? repaired(line, 0, len, cut) : new Line(null, cut, number);
                }
            }
            int start = pos;
            int bits = 0;
            while (pos < limit && buf[pos] != '\n') {
                bits |= buf[pos];
                pos++;
            }
            highBits |= bits;
            int chunk = pos - start;
            if (len == 0 && !tooLong && pos < limit && chunk <= maxLength) {
                pos++; // the whole line is in the buffer: make it from there, without copying it first
                number++;
                return finish(buf, start, chunk, false);
            }
            if (!tooLong) {
                int keep = Math.min(chunk, maxLength - len); // an over-long line keeps its first maxLength bytes
                tooLong = keep < chunk;
                ensure(len + keep);
                System.arraycopy(buf, start, line, len, keep);
                len += keep;
            }
            if (pos < limit) { // found the newline
                pos++;
                number++;
                return finish(line, 0, len, tooLong);
            }
        }
    }

    private Line finish(byte[] bytes, int off, int len, boolean tooLong) {
        if (tooLong) {
            String problem = "line " + number + " is longer than the maximum of " + maxLength
                    + " bytes (sluice.input.maxLineLength)";
            return repair ? repaired(bytes, off, wholeCharacters(bytes, off, len), problem)
                    : new Line(null, problem, number);
        }
        int end = len > 0 && bytes[off + len - 1] == '\r' ? len - 1 : len;
        if (highBits >= 0) { // ASCII: valid UTF-8 as it is, and Latin-1 makes the compact string directly
            if (sink != null) {
                sink.line(bytes, off, end);
                return STORED;
            }
            return new Line(new String(bytes, off, end, StandardCharsets.ISO_8859_1), null, number);
        }
        int malformed = malformedAt(bytes, off, end);
        if (malformed >= 0) {
            String problem = "line " + number + " is not valid UTF-8 at byte " + (malformed + 1);
            return repair ? repaired(bytes, off, end, problem) : new Line(null, problem, number);
        }
        if (sink != null) {
            sink.line(bytes, off, end);
            return STORED;
        }
        return new Line(chars.flip().toString(), null, number);
    }

    /** The line decoded with U+FFFD for malformed bytes; in sink mode its (valid) UTF-8 bytes go to the sink. */
    private Line repaired(byte[] bytes, int off, int len, String problem) {
        String text;
        try {
            text = replacing.decode(ByteBuffer.wrap(bytes, off, len)).toString();
        } catch (java.nio.charset.CharacterCodingException e) {
            throw new IllegalStateException("a replacing decoder reported malformed input", e);
        }
        if (sink != null) {
            byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
            sink.line(utf8, 0, utf8.length);
            return new Line("", problem, number);
        }
        return new Line(text, problem, number);
    }

    /** The offset of the first malformed byte of the line, or -1 if it is valid; its characters are in chars. */
    private int malformedAt(byte[] bytes, int off, int len) {
        if (chars.capacity() < len) {
            chars = CharBuffer.allocate(Math.max(len, chars.capacity() * 2));
        }
        chars.clear();
        decoder.reset();
        ByteBuffer in = ByteBuffer.wrap(bytes, off, len);
        CoderResult r = decoder.decode(in, chars, true);
        if (!r.isError()) {
            r = decoder.flush(chars);
        }
        return r.isError() ? in.position() - off : -1;
    }

    /** {@code len} shortened so that it does not end inside a UTF-8 sequence. */
    private static int wholeCharacters(byte[] bytes, int off, int len) {
        int end = len;
        int back = 0;
        while (end > 0 && back < 3 && (bytes[off + end - 1] & 0xC0) == 0x80) { // continuation bytes
            end--;
            back++;
        }
        if (end > 0 && (bytes[off + end - 1] & 0x80) != 0) { // a lead byte: whole only if all its bytes are there
            int lead = bytes[off + end - 1] & 0xFF;
            int need = lead >= 0xF0 ? 3 : lead >= 0xE0 ? 2 : lead >= 0xC0 ? 1 : 0;
            return need == back ? len : end - 1;
        }
        return len;
    }

    private void ensure(int capacity) {
        if (capacity > line.length) {
            byte[] bigger = new byte[Math.max(capacity, line.length * 2)];
            System.arraycopy(line, 0, bigger, 0, line.length);
            line = bigger;
        }
    }
}
