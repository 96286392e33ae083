package io.sluice.dstream.source.internal;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * Lines a text receiver read, kept as their validated UTF-8 bytes in one array: a block of them is stored and
 * serialized as a few arrays instead of one string object per line, and the lines become strings only when a
 * task reads the batch. The receiver's cost per line is then finding its end and checking its bytes.
 */
public final class PackedLines implements Serializable {
    private static final long serialVersionUID = 1L;

    private final byte[] data;
    private final int[] ends;

    private PackedLines(byte[] data, int[] ends) {
        this.data = data;
        this.ends = ends;
    }

    public int size() {
        return ends.length;
    }

    /**
     * Written to Kryo as its two arrays (the receiver write-ahead log only takes registered classes), and read
     * back checked: line ends ascending within the bytes.
     */
    static final class KryoSerializer extends Serializer<PackedLines> {
        KryoSerializer() {
            super(false, true);
        }

        @Override
        public void write(Kryo kryo, Output output, PackedLines lines) {
            output.writeInt(lines.data.length, true);
            output.writeBytes(lines.data);
            output.writeInt(lines.ends.length, true);
            output.writeInts(lines.ends, true);
        }

        @Override
        public PackedLines read(Kryo kryo, Input input, Class<PackedLines> type) {
            byte[] data = input.readBytes(input.readInt(true));
            int[] ends = input.readInts(input.readInt(true), true);
            int previous = 0;
            for (int end : ends) {
                if (end < previous || end > data.length) {
                    throw new IllegalArgumentException("damaged packed lines: line end " + end + " after " + previous
                            + " in " + data.length + " bytes");
                }
                previous = end;
            }
            if (previous != data.length) {
                throw new IllegalArgumentException("damaged packed lines: " + (data.length - previous)
                        + " bytes after the last line");
            }
            return new PackedLines(data, ends);
        }
    }

    /** The bytes of the lines. */
    public int byteSize() {
        return data.length;
    }

    public Iterator<String> iterator() {
        return new Iterator<>() {
            private int i;

            @Override
            public boolean hasNext() {
                return i < ends.length;
            }

            @Override
            public String next() {
                if (i >= ends.length) {
                    throw new NoSuchElementException();
                }
                int start = i == 0 ? 0 : ends[i - 1];
                int end = ends[i++];
                return new String(data, start, end - start, StandardCharsets.UTF_8);
            }
        };
    }

    /** Collects lines; {@link #build} hands them over and starts afresh. */
    public static final class Builder {
        private byte[] data = new byte[64 * 1024];
        private int[] ends = new int[1024];
        private int size;
        private int length;

        public void add(byte[] bytes, int off, int len) {
            if (length + len > data.length) {
                data = Arrays.copyOf(data, Math.max(length + len, data.length * 2));
            }
            System.arraycopy(bytes, off, data, length, len);
            length += len;
            if (size == ends.length) {
                ends = Arrays.copyOf(ends, size * 2);
            }
            ends[size++] = length;
        }

        public int size() {
            return size;
        }

        public int bytes() {
            return length;
        }

        public PackedLines build() {
            PackedLines p = new PackedLines(Arrays.copyOf(data, length), Arrays.copyOf(ends, size));
            size = 0;
            length = 0;
            return p;
        }
    }
}
