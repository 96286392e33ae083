package io.sluice.recovery.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.rdd.Time;
import io.sluice.recovery.internal.wal.FileWriteAheadLog;
import io.sluice.recovery.internal.wal.LoggedRecord;
import io.sluice.recovery.internal.wal.RecordHandle;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Checkpoint files and the write-ahead log on a real HDFS (Hadoop's in-process mini cluster, one DataNode, on
 * 127.0.0.1): what HDFS does differently from a local disk, a file still open for writing and rename.
 */
class HdfsFilesTest {
    @TempDir
    static Path dir;

    private static MiniDFSCluster hdfs;

    @BeforeAll
    static void startHdfs() throws IOException {
        Configuration conf = new Configuration();
        conf.set("dfs.namenode.http-address", "127.0.0.1:0");
        conf.set("dfs.datanode.address", "127.0.0.1:0");
        conf.set("dfs.datanode.http.address", "127.0.0.1:0");
        conf.set("dfs.datanode.ipc.address", "127.0.0.1:0");
        conf.setInt("dfs.replication", 1);
        // What the mini cluster's servers would otherwise warn about at start: their web servers' signing secret
        // (Hadoop reads it from the user's home directory, else makes up one) and the DataNode's directory scanner
        // throttle (Hadoop's default file sets 1000 ms/s, which the scanner takes as "no throttle", -1).
        Path secret = dir.resolve("http-signature-secret");
        Files.writeString(secret, "sluice-hdfs-files-test");
        conf.set("hadoop.http.authentication.signature.secret.file", secret.toString());
        conf.setInt("dfs.datanode.directoryscan.throttle.limit.ms.per.sec", -1);
        hdfs = new MiniDFSCluster.Builder(conf, dir.resolve("hdfs").toFile()).numDataNodes(1).build();
        hdfs.waitActive();
    }

    @AfterAll
    static void stopHdfs() {
        if (hdfs != null) {
            hdfs.shutdown(true);
        }
    }

    private static String uri(String path) {
        return hdfs.getURI() + path;
    }

    /**
     * A driver killed while its segment is open leaves a file HDFS lists with the length the NameNode last heard of
     * (its completed blocks, or the first sync of the last one); the records it synced and acknowledged must
     * still be read back.
     */
    @Test
    void recordsOfASegmentLeftOpenByACrashedWriterAreReadBack() throws IOException {
        Configuration writerConf = new Configuration(hdfs.getConfiguration(0));
        writerConf.setBoolean("fs.hdfs.impl.disable.cache", true); // the "crashed" writer: its own HDFS client
        FileWriteAheadLog crashed = FileWriteAheadLog.open(uri("/wal-open"), writerConf,
                new FileWriteAheadLog.Settings(Duration.ofMinutes(1), 1 << 20));
        RecordHandle first = crashed.write(bytes("a"), new Time(1000));
        crashed.write(bytes("bb"), new Time(2000));
        FileSystem fs = FileSystem.newInstance(hdfs.getURI(), hdfs.getConfiguration(0));
        org.apache.hadoop.fs.Path segment = fs.listStatus(new org.apache.hadoop.fs.Path("/wal-open"))[0].getPath();
        long written = 8 + (16 + 1) + (16 + 2); // the header and two records
        assertTrue(fs.getFileStatus(segment).getLen() < written, "HDFS lists the open segment shorter than written");

        try (FileWriteAheadLog restarted = FileWriteAheadLog.open(uri("/wal-open"), hdfs.getConfiguration(0))) {
            List<LoggedRecord> records = restarted.readAll();
            assertEquals(List.of("1000:a", "2000:bb"), records.stream()
                    .map(r -> r.time().milliseconds() + ":" + new String(r.data(), StandardCharsets.UTF_8)).toList());
            assertArrayEquals(bytes("a"), restarted.read(first));
        }
        fs.close();
    }

    @Test
    void writingAtomicallyReplacesAnExistingFileAndLeavesNoTempFile() throws IOException {
        HadoopCheckpointStorage storage = new HadoopCheckpointStorage(uri("/checkpoint"), hdfs.getConfiguration(0));
        storage.writeAtomically("progress/checkpoint-1", bytes("old"));
        storage.writeAtomically("progress/checkpoint-1", bytes("new"));
        assertArrayEquals(bytes("new"), storage.read("progress/checkpoint-1"));
        assertEquals(List.of("progress/checkpoint-1"), storage.listFiles("progress"));
    }

    /**
     * A newer checkpoint still being written when its driver died (its temp file open, hflushed, never renamed)
     * is never taken: recovery continues from the newest complete one.
     */
    @Test
    void aHalfWrittenCheckpointIsNotTakenAsComplete() throws IOException {
        HadoopCheckpointStorage storage = new HadoopCheckpointStorage(uri("/half"), hdfs.getConfiguration(0));
        CheckpointStore store = new CheckpointStore(storage, CheckpointStore.DEFAULT_RETAINED);
        Checkpoint complete = Checkpoints.at(3000, 2000, 2);
        Checkpoints.writeDataFiles(storage, complete);
        store.write(complete);
        byte[] newer = CheckpointFormat.encode(Checkpoints.at(4000, 2000, 2));
        FSDataOutputStream open = storage.fileSystem().create(
                new org.apache.hadoop.fs.Path(storage.root(), "progress/.checkpoint-4000.crashed.tmp"));
        open.write(newer, 0, newer.length / 2);
        open.hflush();

        CheckpointStore.Recovered recovered = store.latest();
        assertEquals(3000, recovered.checkpoint().orElseThrow().batchTime().milliseconds(), recovered.toString());
        assertTrue(recovered.skipped().isEmpty(), "a temp file is not a checkpoint to skip: " + recovered.skipped());
        open.close();
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
