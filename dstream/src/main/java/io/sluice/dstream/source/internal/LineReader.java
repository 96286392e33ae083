package io.sluice.dstream.source.internal;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Splits a byte stream into UTF-8 lines ({@code \n} or {@code \r\n}) and says exactly what is wrong with a line it
 * cannot return: not valid UTF-8, longer than the maximum (its bytes are skipped up to the next newline, so one
 * huge line cannot exhaust memory), or (for a socket, where it means the server closed mid-line) cut off because
 * the stream ended before its newline. In a file, a last line without a newline is an ordinary line.
 */
public final class LineReader {
    /** One outcome of {@link #next()}: a line, a bad line, or the end of the stream. */
    public record Line(String text, String problem, long number) {
        public boolean isEnd() {
            return text == null && problem == null;
        }
    }

    private final InputStream in;
    private final int maxLength;
    private final boolean lastLineNeedsNewline;
    private final CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
    private final byte[] buf = new byte[64 * 1024];
    private int pos;
    private int limit;
    private byte[] line = new byte[256];
    private long number;
    private int highBits; // OR of the current line's bytes: no high bit set means plain ASCII

    public LineReader(InputStream in, int maxLength, boolean lastLineNeedsNewline) {
        this.in = in;
        this.maxLength = maxLength;
        this.lastLineNeedsNewline = lastLineNeedsNewline;
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

    public Line next() throws IOException {
        int len = 0;
        boolean tooLong = false;
        highBits = 0;
        while (true) {
            if (pos == limit) {
                if (sink != null) {
                    sink.flush();
                }
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
                    return new Line(null, "line " + number + " was cut off: the stream ended after " + len
                            + " bytes without a newline", number);
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
                if (len + chunk > maxLength) {
                    tooLong = true;
                } else {
                    ensure(len + chunk);
                    System.arraycopy(buf, start, line, 0 + len, chunk);
                    len += chunk;
                }
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
            return new Line(null, "line " + number + " is longer than the maximum of " + maxLength
                    + " bytes (sluice.input.maxLineLength)", number);
        }
        int end = len > 0 && bytes[off + len - 1] == '\r' ? len - 1 : len;
        if (highBits >= 0) { // ASCII: valid UTF-8 as it is, and Latin-1 makes the compact string directly
            if (sink != null) {
                sink.line(bytes, off, end);
                return STORED;
            }
            return new Line(new String(bytes, off, end, StandardCharsets.ISO_8859_1), null, number);
        }
        try {
            String text = decoder.decode(ByteBuffer.wrap(bytes, off, end)).toString();
            if (sink != null) {
                sink.line(bytes, off, end);
                return STORED;
            }
            return new Line(text, null, number);
        } catch (CharacterCodingException e) {
            return new Line(null, "line " + number + " is not valid UTF-8 (" + e.getMessage() + ")", number);
        }
    }

    private void ensure(int capacity) {
        if (capacity > line.length) {
            byte[] bigger = new byte[Math.max(capacity, line.length * 2)];
            System.arraycopy(line, 0, bigger, 0, line.length);
            line = bigger;
        }
    }
}
