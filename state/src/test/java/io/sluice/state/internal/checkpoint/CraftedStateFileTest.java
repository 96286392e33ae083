package io.sluice.state.internal.checkpoint;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.esotericsoftware.kryo.io.Output;
import com.github.luben.zstd.ZstdOutputStream;
import io.sluice.rdd.Time;
import io.sluice.state.internal.StateCodec;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.CRC32C;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A state file that names a class outside the registered ones is refused, and the class is never loaded. */
class CraftedStateFileTest {
    private static final String FLAG = "sluice.test.craftedStateFile.loaded";

    /** What a crafted file would name: loading it with initialisation sets a visible flag. */
    static final class SideEffect {
        static {
            System.setProperty(FLAG, "loaded");
        }
    }

    @TempDir
    Path dir;

    @Test
    void aStateFileNamingAnUnregisteredClassIsRefusedWithoutLoadingIt() throws Exception {
        String path = "state/op/1000-full/part-0";
        byte[] file = stateFile(snapshotNaming(SideEffect.class.getName()));
        Path onDisk = dir.resolve(path);
        Files.createDirectories(onDisk.getParent());
        Files.write(onDisk, file);
        FileSystem fs = FileSystem.getLocal(new Configuration());
        List<StateFile> chain = List.of(new StateFile(0, new Time(1000), StateFile.Kind.FULL, path, file.length));

        IOException e = assertThrows(IOException.class,
                () -> PartitionFiles.read(fs, new org.apache.hadoop.fs.Path(dir.toUri()), chain,
                        io.sluice.state.internal.HeapBackend.INSTANCE));
        assertTrue(e.getMessage().contains("part-0"), e.getMessage());
        assertTrue(e.getMessage().contains(SideEffect.class.getName()), e.getMessage());
        assertNull(System.getProperty(FLAG), "the class named by the file was initialised");
    }

    /** The codec bytes of a one-entry snapshot whose key is written by class name, as Kryo writes an unregistered class. */
    private static byte[] snapshotNaming(String className) {
        Output out = new Output(256, -1);
        out.writeInt(StateCodec.MAGIC);
        out.writeInt(StateCodec.FORMAT_VERSION);
        out.writeByte(1); // snapshot
        out.writeLong(1000);
        out.writeLong(Long.MIN_VALUE);
        out.writeBoolean(false);
        out.writeInt(1);
        out.writeByte(0); // put
        out.writeVarInt(1, true); // Kryo's "class by name" marker
        out.writeVarInt(0, true); // the name's id within the object graph
        out.writeString(className);
        return out.toBytes();
    }

    /** A state file around {@code body}, in {@link EntryFileFormat}'s layout, with a valid checksum. */
    private static byte[] stateFile(byte[] body) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        bytes.write(ByteBuffer.allocate(9).putInt(EntryFileFormat.MAGIC).putInt(EntryFileFormat.VERSION)
                .put(EntryFileFormat.ZSTD).array());
        ByteArrayOutputStream compressed = new ByteArrayOutputStream();
        try (OutputStream z = new ZstdOutputStream(compressed)) {
            z.write(body);
        }
        bytes.write(compressed.toByteArray());
        CRC32C crc = new CRC32C();
        byte[] all = bytes.toByteArray();
        crc.update(all, 0, all.length);
        bytes.write(ByteBuffer.allocate(4).putInt((int) crc.getValue()).array());
        return bytes.toByteArray();
    }
}
