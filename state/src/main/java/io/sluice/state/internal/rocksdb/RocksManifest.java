package io.sluice.state.internal.rocksdb;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32C;

/**
 * The checkpoint of one RocksDB state partition after one batch: what the state means (batch, entries, key-group
 * range, timeouts, since when removals are known) and the files RocksDB opens as it: the table files, each
 * uploaded once to the operator's shared directory and named by every later manifest that still needs it, and
 * RocksDB's small files (its MANIFEST, CURRENT, OPTIONS), held in this file itself.
 *
 * <p>Bytes: {@code [int magic "SLSM"][int version]}, then compressed with zstd the fields, the tables ({@code
 * local name, path, length}) and the small files ({@code name, bytes}), then {@code [int crc32c of everything
 * before]}; a damaged or truncated manifest is never used.
 *
 * @param firstGroup the lowest key group holding an entry (-1 without entries)
 * @param lastGroup  the highest key group holding an entry (-1 without entries)
 * @param tables     the table files, by the name RocksDB gives them in its directory
 * @param smallFiles RocksDB's other files of the checkpoint, by name
 */
public record RocksManifest(long batchTime, long entries, boolean timed, long removalsKnownSince, int keyGroups,
        int firstGroup, int lastGroup, List<Table> tables, Map<String, byte[]> smallFiles) {
    static final int MAGIC = 0x534C534D; // "SLSM"
    static final int VERSION = 1;

    /**
     * A table file of the checkpoint.
     *
     * @param localName the file's name in RocksDB's directory (RocksDB's file number)
     * @param path      where it is, relative to the checkpoint directory
     */
    public record Table(String localName, String path, long length) {
    }

    public RocksManifest {
        tables = List.copyOf(tables);
        smallFiles = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(smallFiles));
    }

    /** Whether {@code bytes} (a state file's) are a manifest, not a snapshot or delta of entries. */
    public static boolean isManifest(byte[] bytes) {
        return bytes.length >= 4 && ByteBuffer.wrap(bytes, 0, 4).getInt() == MAGIC;
    }

    public byte[] encode() {
        try {
            ByteArrayOutputStream body = new ByteArrayOutputStream(4096);
            DataOutputStream out = new DataOutputStream(body);
            out.writeLong(batchTime);
            out.writeLong(entries);
            out.writeBoolean(timed);
            out.writeLong(removalsKnownSince);
            out.writeInt(keyGroups);
            out.writeInt(firstGroup);
            out.writeInt(lastGroup);
            out.writeInt(tables.size());
            for (Table t : tables) {
                out.writeUTF(t.localName());
                out.writeUTF(t.path());
                out.writeLong(t.length());
            }
            out.writeInt(smallFiles.size());
            for (Map.Entry<String, byte[]> f : smallFiles.entrySet()) {
                out.writeUTF(f.getKey());
                out.writeInt(f.getValue().length);
                out.write(f.getValue());
            }
            out.flush();
            byte[] compressed = Zstd.compress(body.toByteArray(), 3);
            ByteBuffer bytes = ByteBuffer.allocate(12 + compressed.length).putInt(MAGIC).putInt(VERSION)
                    .put(compressed);
            CRC32C crc = new CRC32C();
            crc.update(bytes.array(), 0, bytes.position());
            return bytes.putInt((int) crc.getValue()).array();
        } catch (IOException e) {
            throw new IllegalStateException(e); // a byte array does not fail
        }
    }

    /** The manifest in {@code bytes}, after checking it whole; {@code file} names it in errors. */
    public static RocksManifest decode(byte[] bytes, String file) throws IOException {
        if (bytes.length < 12 || !isManifest(bytes)) {
            throw new IOException("state file " + file + " is not a RocksDB state manifest");
        }
        CRC32C crc = new CRC32C();
        crc.update(bytes, 0, bytes.length - 4);
        if ((int) crc.getValue() != ByteBuffer.wrap(bytes, bytes.length - 4, 4).getInt()) {
            throw new IOException("state file " + file + " fails its checksum (damaged or truncated)");
        }
        int version = ByteBuffer.wrap(bytes, 4, 4).getInt();
        if (version > VERSION) {
            throw new IOException("state manifest " + file + " has format version " + version + ", newer than this "
                    + "Sluice's " + VERSION);
        }
        DataInputStream in = new DataInputStream(new ZstdInputStream(
                new java.io.ByteArrayInputStream(bytes, 8, bytes.length - 12)));
        long batchTime = in.readLong();
        long entries = in.readLong();
        boolean timed = in.readBoolean();
        long removalsKnownSince = in.readLong();
        int keyGroups = in.readInt();
        int firstGroup = in.readInt();
        int lastGroup = in.readInt();
        int tableCount = in.readInt();
        List<Table> tables = new ArrayList<>();
        for (int i = 0; i < tableCount; i++) {
            tables.add(new Table(in.readUTF(), in.readUTF(), in.readLong()));
        }
        int fileCount = in.readInt();
        Map<String, byte[]> smallFiles = new LinkedHashMap<>();
        for (int i = 0; i < fileCount; i++) {
            String name = in.readUTF();
            byte[] content = new byte[in.readInt()];
            in.readFully(content);
            smallFiles.put(name, content);
        }
        for (String name : smallFiles.keySet()) {
            checkName(name, file);
        }
        for (Table t : tables) {
            checkName(t.localName(), file);
        }
        return new RocksManifest(batchTime, entries, timed, removalsKnownSince, keyGroups, firstGroup, lastGroup,
                tables, smallFiles);
    }

    /** A file name a restore writes into a local directory: never a path out of it. */
    private static void checkName(String name, String file) throws IOException {
        if (name.isEmpty() || name.contains("/") || name.contains("\\") || name.startsWith(".")) {
            throw new IOException("state manifest " + file + " names the file '" + name + "', not a plain file name");
        }
    }
}
