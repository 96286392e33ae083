package io.sluice.state.internal.checkpoint;

import com.github.luben.zstd.ZstdInputStream;
import com.github.luben.zstd.ZstdOutputStream;
import io.sluice.state.internal.StateCodec;
import io.sluice.state.internal.StateVersion;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * The bytes of one state file: {@code [int magic "SLSF"][int version][byte compression]}, then the state
 * codec's snapshot or delta compressed with zstd, then {@code [int crc32c of everything before]}. What the
 * entries mean is {@link StateCodec}'s business; this layer makes the file self-checking (a damaged or
 * truncated file is never decoded) and small (keys and counters compress several-fold).
 */
public final class EntryFileFormat {
    static final int MAGIC = 0x534C5346; // "SLSF"
    static final int VERSION = 1;
    static final byte ZSTD = 1;
    private static final int HEADER = 9;
    /** Fast and still several-fold smaller; state files are written on the batch's critical path. */
    private static final int ZSTD_LEVEL = 1;

    private EntryFileFormat() {
    }

    /** A snapshot of {@code state}, or with {@code deltaSince} set, what changed after that batch. */
    public static byte[] encode(StateCodec codec, StateVersion<?, ?> state, Long deltaSince) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(1 << 16);
        bytes.write(ByteBuffer.allocate(HEADER).putInt(MAGIC).putInt(VERSION).put(ZSTD).array());
        try (OutputStream z = new ZstdOutputStream(new NonClosing(bytes), ZSTD_LEVEL)) {
            if (deltaSince == null) {
                codec.writeSnapshot(state, z);
            } else {
                codec.writeDelta(state, deltaSince, z);
            }
        }
        CRC32C crc = new CRC32C();
        byte[] body = bytes.toByteArray();
        crc.update(body, 0, body.length);
        bytes.write(ByteBuffer.allocate(4).putInt((int) crc.getValue()).array());
        return bytes.toByteArray();
    }

    /** The codec stream inside a state file, after checking it whole; {@code file} names it in errors. */
    public static InputStream decode(byte[] bytes, String file) throws IOException {
        if (bytes.length < HEADER + 4) {
            throw new IOException("state file " + file + " is truncated (" + bytes.length + " bytes)");
        }
        ByteBuffer buf = ByteBuffer.wrap(bytes);
        if (buf.getInt() != MAGIC) {
            throw new IOException(file + " is not a Sluice state file");
        }
        int version = buf.getInt();
        if (version > VERSION) {
            throw new IOException("state file " + file + " has format version " + version + ", newer than this "
                    + "Sluice's " + VERSION);
        }
        byte compression = buf.get();
        CRC32C crc = new CRC32C();
        crc.update(bytes, 0, bytes.length - 4);
        if ((int) crc.getValue() != ByteBuffer.wrap(bytes, bytes.length - 4, 4).getInt()) {
            throw new IOException("state file " + file + " fails its checksum (damaged or truncated)");
        }
        if (compression != ZSTD) {
            throw new IOException("state file " + file + " uses unknown compression " + compression);
        }
        return new ZstdInputStream(new ByteArrayInputStream(bytes, HEADER, bytes.length - HEADER - 4));
    }

    /** Lets the compressor finish its frame without closing the buffer it writes to. */
    private static final class NonClosing extends java.io.FilterOutputStream {
        NonClosing(OutputStream out) {
            super(out);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
        }

        @Override
        public void close() throws IOException {
            flush();
        }
    }
}
