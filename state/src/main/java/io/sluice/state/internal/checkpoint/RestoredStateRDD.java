package io.sluice.state.internal.checkpoint;

import io.sluice.rdd.Time;
import io.sluice.rdd.internal.CachedBlocks;
import io.sluice.rdd.internal.ClassTags;
import io.sluice.rdd.internal.DriverLocal;
import io.sluice.recovery.internal.HadoopFiles;
import io.sluice.state.internal.StateBackend;
import io.sluice.state.internal.StateVersion;
import java.io.IOException;
import java.io.Serializable;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.Partition;
import org.apache.spark.SparkContext;
import org.apache.spark.TaskContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.rdd.RDD;
import org.apache.spark.util.SerializableConfiguration;
import scala.jdk.javaapi.CollectionConverters;

/**
 * The state of one operator after one checkpointed batch, as an RDD without parents: partition i is the
 * state version of state partition i, read from its own files (a snapshot, then deltas), independently of
 * every other partition, so a restart or a lost executor rebuilds all of them in parallel.
 *
 * <p>It is also the lineage cut of a running stream: the state of the next batch is computed from this RDD,
 * not from the long chain of earlier state RDDs. While the in-memory state RDD of that batch is still cached,
 * a partition is taken from its block (no file is read); only a lost block costs a read. After a restart in
 * local mode, a partition the driver decoded ahead ({@link StatePrefetch}, lent to the tasks in the driver's
 * JVM) is taken from there.
 *
 * <p>{@code filesPending}: the files of {@code time} itself were not yet written when this RDD was made (the
 * batch's checkpoint job writes them before any later batch runs); partition i then finds its file of
 * {@code time} (a snapshot, or a delta on top of {@code chains.get(i)}) when it is computed.
 */
public final class RestoredStateRDD<K, S> extends RDD<StateVersion<K, S>> {
    private static final long serialVersionUID = 1L;

    /** Extracts the state version from a record of the cached state RDD (its partitions hold one record). */
    @FunctionalInterface
    public interface CachedRecord<K, S> extends Serializable {
        StateVersion<K, S> version(Object record);
    }

    private final String root;
    private final Broadcast<SerializableConfiguration> conf;
    private final String operatorId;
    private final String operatorName;
    private final Time time;
    private final List<List<StateFile>> chains;
    private final boolean filesPending;
    private final int cachedRddId;
    private final CachedRecord<K, S> cachedRecord;
    // Weak: the state RDD is only where its blocks are while its stream remembers it, and a strong reference
    // would chain every state RDD of the run (each one's lineage reaches the previous cut, which named the one
    // before): a leak of RDDs, and of the exchanges they read, found by the soak.
    private final transient WeakReference<RDD<?>> cached;
    private final StateBackend backend;
    private final DriverLocal<StatePrefetch> decodedAhead;

    /**
     * @param chains       per partition: the complete chain, or with {@code filesPending} the chain the file of
     *                     {@code time} applies to if it is a delta
     * @param cached       the in-memory state RDD of {@code time} to take partitions from while cached, or null
     * @param backend      the backend a partition read from files is loaded into
     * @param decodedAhead the restart's state decoded ahead, for tasks in the driver's JVM, or null
     */
    public RestoredStateRDD(SparkContext sc, String root, Broadcast<SerializableConfiguration> conf,
            String operatorId, String operatorName, Time time, List<List<StateFile>> chains, boolean filesPending,
            RDD<?> cached, CachedRecord<K, S> cachedRecord, StateBackend backend,
            DriverLocal<StatePrefetch> decodedAhead) {
        super(sc, scala.collection.immutable.List$.MODULE$.<org.apache.spark.Dependency<?>>empty(),
                ClassTags.<StateVersion<K, S>>any());
        this.root = root;
        this.conf = conf;
        this.operatorId = operatorId;
        this.operatorName = operatorName;
        this.time = time;
        this.chains = copy(chains);
        this.filesPending = filesPending;
        this.cached = cached == null ? null : new WeakReference<>(cached);
        this.cachedRddId = cached == null ? -1 : cached.id();
        this.cachedRecord = cachedRecord;
        this.backend = backend;
        this.decodedAhead = decodedAhead;
    }

    private static List<List<StateFile>> copy(List<List<StateFile>> chains) {
        List<List<StateFile>> result = new ArrayList<>();
        for (List<StateFile> chain : chains) {
            result.add(new ArrayList<>(chain));
        }
        return result;
    }

    @Override
    public Partition[] getPartitions() {
        Partition[] partitions = new Partition[chains.size()];
        for (int i = 0; i < partitions.length; i++) {
            partitions[i] = new Part(i);
        }
        return partitions;
    }

    @Override
    public scala.collection.immutable.Seq<String> getPreferredLocations(Partition split) {
        RDD<?> c = cached == null ? null : cached.get();
        List<String> hosts = c == null ? List.of() : CachedBlocks.hostsOf(c, split.index());
        return CollectionConverters.asScala(hosts).toList();
    }

    @Override
    public scala.collection.Iterator<StateVersion<K, S>> compute(Partition split, TaskContext context) {
        int i = split.index();
        StateVersion<K, S> version = cachedRddId >= 0 ? fromBlock(i) : null;
        if (version == null) {
            try {
                version = fromFiles(i);
            } catch (IOException e) {
                throw new IllegalStateException("cannot restore partition " + i + " of the state of " + operatorName
                        + " after batch " + time + ": " + e.getMessage(), e);
            }
        }
        return CollectionConverters.asScala(List.of(version).iterator());
    }

    private StateVersion<K, S> fromBlock(int partition) {
        return CachedBlocks.firstRecord(cachedRddId, partition).map(cachedRecord::version).orElse(null);
    }

    private StateVersion<K, S> fromFiles(int partition) throws IOException {
        if (!filesPending && decodedAhead != null) {
            StateVersion<K, S> decoded = decodedAhead.get().map(p -> p.<K, S>take(root, chains.get(partition)))
                    .orElse(null);
            if (decoded != null) {
                return decoded;
            }
        }
        Path rootPath = new Path(root);
        FileSystem fs = HadoopFiles.fileSystem(rootPath, conf.value().value());
        List<StateFile> chain = new ArrayList<>(chains.get(partition));
        if (filesPending) {
            StateFile own = PartitionFiles.find(fs, rootPath, operatorId, time, partition);
            if (own == null) {
                throw new IOException("it is no longer cached and its checkpoint file was not written (a batch "
                        + "after it ran before its checkpoint job finished)");
            }
            if (own.full()) {
                chain.clear();
            }
            chain.add(own);
        }
        return PartitionFiles.read(fs, rootPath, chain, backend);
    }

    private record Part(int index) implements Partition {
        @Override
        public int hashCode() {
            return index;
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Part p && p.index == index;
        }
    }
}
