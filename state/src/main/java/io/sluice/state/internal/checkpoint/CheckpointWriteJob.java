package io.sluice.state.internal.checkpoint;

import io.sluice.rdd.internal.Jobs;
import io.sluice.rdd.internal.PartitionFunction;
import io.sluice.rdd.Time;
import io.sluice.rdd.internal.Transforms;
import io.sluice.recovery.internal.HadoopFiles;
import io.sluice.state.internal.StateVersion;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.util.SerializableConfiguration;
import scala.Tuple5;

/**
 * Writes the state of one operator after one batch: one Spark job whose task i writes the files of state
 * partition i where that partition lives, so all partitions are written in parallel and no state travels
 * to the driver. Returns what each partition's checkpoint needs beyond the chain it builds on (a snapshot, a
 * delta when one was asked for and the partition knows its changes, or a RocksDB manifest and its tables).
 */
public final class CheckpointWriteJob {
    private CheckpointWriteJob() {
    }

    /**
     * @param deltaSince per partition: the batch to write the changes since, or null for a full snapshot
     * @param baseTables per partition: the RocksDB table files (path to length) of the checkpoint it builds on
     */
    public static <K, S> List<StateFile> write(JavaRDD<StateVersion<K, S>> versions, String root,
            Broadcast<SerializableConfiguration> conf, String operatorId, Time time, List<Long> deltaSince,
            List<HashMap<String, Long>> baseTables) {
        List<Long> since = new ArrayList<>(deltaSince);
        List<HashMap<String, Long>> tables = new ArrayList<>(baseTables);
        // a task's result travels as a tuple: Kryo, Spark's serializer, does not write records
        PartitionFunction<StateVersion<K, S>, Tuple5<Integer, Long, Integer, String, Long>> writePartition =
                (partition, it) -> {
                    Path rootPath = new Path(root);
                    FileSystem fs = HadoopFiles.fileSystem(rootPath, conf.value().value());
                    List<Tuple5<Integer, Long, Integer, String, Long>> written = new ArrayList<>();
                    for (StateFile f : PartitionFiles.checkpoint(fs, rootPath, operatorId, time, partition,
                            it.next(), since.get(partition), tables.get(partition))) {
                        written.add(new Tuple5<>(f.partition(), f.time().milliseconds(), f.kind().ordinal(),
                                f.path(), f.length()));
                    }
                    return written.iterator();
                };
        List<StateFile> files = new ArrayList<>();
        for (Tuple5<Integer, Long, Integer, String, Long> f :
                Jobs.collect(Transforms.mapPartitionsWithIndex(versions, writePartition, true))) {
            files.add(new StateFile(f._1(), new Time(f._2()), StateFile.Kind.values()[f._3()], f._4(), f._5()));
        }
        files.sort(Comparator.comparingInt(StateFile::partition));
        return files;
    }
}
