package io.sluice.state.internal.checkpoint;

import io.sluice.rdd.internal.Jobs;
import io.sluice.rdd.internal.PartitionFunction;
import io.sluice.rdd.Time;
import io.sluice.rdd.internal.Transforms;
import io.sluice.recovery.internal.HadoopFiles;
import io.sluice.state.internal.StateVersion;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.util.SerializableConfiguration;
import scala.Tuple3;

/**
 * Writes the state of one operator after one batch: one Spark job whose task i writes the file of state
 * partition i where that partition lives, so all partitions are written in parallel and no state travels
 * to the driver. Returns what was written (per partition: a snapshot, or a delta when one was asked for and
 * the partition knows its changes).
 */
public final class StateFilesJob {
    private StateFilesJob() {
    }

    /**
     * @param deltaSince per partition: the batch to write the changes since, or null for a full snapshot
     */
    public static <K, S> List<StateFile> write(JavaRDD<StateVersion<K, S>> versions, String root,
            Broadcast<SerializableConfiguration> conf, String operatorId, Time time, List<Long> deltaSince) {
        List<Long> since = new ArrayList<>(deltaSince);
        PartitionFunction<StateVersion<K, S>, Tuple3<Integer, Boolean, Long>> writePartition = (partition, it) -> {
            Path rootPath = new Path(root);
            FileSystem fs = HadoopFiles.fileSystem(rootPath, conf.value().value());
            StateFile f = StatePartitionFiles.write(fs, rootPath, operatorId, time, partition, it.next(),
                    since.get(partition));
            return List.of(new Tuple3<>(partition, f.full(), f.length())).iterator();
        };
        List<Tuple3<Integer, Boolean, Long>> written =
                Jobs.collect(Transforms.mapPartitionsWithIndex(versions, writePartition, true));
        List<StateFile> files = new ArrayList<>();
        for (Tuple3<Integer, Boolean, Long> w : written) {
            files.add(new StateFile(w._1(), time, w._2(),
                    StateFile.pathOf(operatorId, time, w._2(), w._1()), w._3()));
        }
        files.sort(Comparator.comparingInt(StateFile::partition));
        return files;
    }
}
