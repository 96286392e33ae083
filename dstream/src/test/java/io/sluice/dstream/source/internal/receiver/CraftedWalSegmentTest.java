package io.sluice.dstream.source.internal.receiver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.esotericsoftware.kryo.io.Output;
import io.sluice.rdd.Time;
import io.sluice.rdd.internal.BlockStore;
import io.sluice.recovery.internal.wal.FileWriteAheadLog;
import io.sluice.recovery.internal.wal.RecordHandle;
import io.sluice.testkit.SharedSpark;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.SparkException;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.util.SerializableConfiguration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A write-ahead-log segment whose record names a class the application did not register is refused when the
 * block is read back from the log, with an error naming the segment and the class; the class never runs.
 */
class CraftedWalSegmentTest {
    private static final String FLAG = "sluice.test.craftedWalSegment.loaded";
    private static JavaSparkContext sc;

    /** What a crafted record would name: initialising it sets a visible flag. */
    static final class SideEffect {
        static {
            System.setProperty(FLAG, "loaded");
        }
    }

    @TempDir
    Path dir;

    @BeforeAll
    static void start() {
        sc = SharedSpark.context();
    }

    @Test
    void aLoggedBlockNamingAnUnregisteredClassIsRefusedWithoutInitialisingIt() throws Exception {
        Output crafted = new Output(256, -1);
        crafted.writeVarInt(1, true); // Kryo's "class by name" marker
        crafted.writeVarInt(0, true); // the name's id within the object graph
        crafted.writeString(SideEffect.class.getName());
        WalBackedBlockRDD<Object> rdd = rddOver(crafted.toBytes());

        SparkException e = assertThrows(SparkException.class, () -> rdd.toJavaRDD().collect());
        assertTrue(e.getMessage().contains("write-ahead log segment " + dir.toUri().getPath()), e.getMessage());
        assertTrue(e.getMessage().contains(SideEffect.class.getName()), e.getMessage());
        assertNull(System.getProperty(FLAG), "the class named by the log was initialised");
    }

    @Test
    void loggedRecordsOfRegisteredClassesReadBack() throws Exception {
        List<Object> records = List.of("a", 1L, new scala.Tuple2<>("k", 2));
        assertEquals(records, rddOver(BlockStore.serialize(records)).toJavaRDD().collect());
    }

    private WalBackedBlockRDD<Object> rddOver(byte[] record) throws Exception {
        String logDir = dir.toUri().getPath();
        RecordHandle handle;
        try (FileWriteAheadLog log = FileWriteAheadLog.open(logDir, new Configuration())) {
            handle = log.write(record, new Time(1000));
        }
        ReceivedBlock block = new ReceivedBlock(42, 1, 0, 0, null, logDir + "/" + handle.encode(), 0, 1000);
        return new WalBackedBlockRDD<>(sc.sc(), 7, List.of(block), new SerializableConfiguration(new Configuration()));
    }
}
