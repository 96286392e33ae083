package io.sluice.dstream.internal.recovery;

import io.sluice.dstream.internal.SourceOperator;
import io.sluice.dstream.internal.Operator;
import io.sluice.dstream.internal.StreamGraph;
import io.sluice.dstream.internal.scheduler.BatchScheduler;
import io.sluice.rdd.BatchGrid;
import io.sluice.rdd.Time;
import io.sluice.recovery.internal.Checkpoint;
import io.sluice.recovery.internal.CheckpointStore;
import io.sluice.recovery.internal.OperatorRecord;
import io.sluice.state.internal.checkpoint.StateLifecycle;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Records progress after every batch, strictly in batch order: the checkpoint of batch t is written only
 * once t and every batch generated before it completed, so a checkpoint never claims a batch whose
 * predecessor could still be lost (Spark Streaming's SPARK-12122 and SPARK-11740). A failed batch stops the
 * progress where it is: it is run again after a restart.
 *
 * <p>It observes the scheduler on its event loop and only gathers what the checkpoint says there (cheap, in
 * memory); the file is written by one background thread, so the event loop never waits on the file system.
 * A checkpoint supersedes every older one: when batches complete faster than checkpoints are written (a job
 * far behind, whose checkpoints carry the positions of every pending batch), only the newest one waiting is
 * written, and the ones it replaced are dropped, so memory stays bounded however far behind the job is.
 */
public final class CheckpointWriter implements BatchScheduler.BatchObserver, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(CheckpointWriter.class);

    private final CheckpointStore store;
    private final StreamGraph graph;
    private final List<StateCheckpointObserver<?, ?>> states;
    private final BatchGrid grid; // the context's zero time and batch interval
    private final ExecutorService io;
    // The fields below are touched on the scheduler's event loop only.
    private final TreeSet<Time> generated = new TreeSet<>();
    private final Set<Time> completed = new HashSet<>();
    private final Set<Time> failed = new HashSet<>();
    private Time lastGenerated;
    private volatile Time lastWritten; // the batch of the newest checkpoint written by this run
    private final AtomicReference<Pending> waiting = new AtomicReference<>(); // the newest not yet written

    /** A checkpoint to write, and the state checkpoints whose files must stay beside it. */
    private record Pending(Checkpoint checkpoint, List<OperatorRecord> stateInUse) {
    }

    /**
     * @param lastCheckpointed the batch of the checkpoint this run recovered from, or null on a first start
     */
    public CheckpointWriter(CheckpointStore store, StreamGraph graph, List<StateCheckpointObserver<?, ?>> states,
            Time zeroTime, Time lastCheckpointed) {
        this.store = store;
        this.graph = graph;
        this.states = List.copyOf(states);
        this.grid = new BatchGrid(zeroTime, graph.batchInterval());
        this.lastGenerated = lastCheckpointed;
        this.io = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "sluice-checkpoint-writer");
            t.setDaemon(true);
            return t;
        });
    }

    @Override
    public void batchGenerated(Time time) {
        generated.add(time);
        if (lastGenerated == null || time.isAfter(lastGenerated)) {
            lastGenerated = time;
        }
    }

    @Override
    public void batchFailed(Time time) {
        failed.add(time);
    }

    @Override
    public void batchCompleted(Time time) {
        if (!generated.contains(time) || failed.contains(time)) {
            return; // a failed batch stays pending, and so does every batch after it
        }
        completed.add(time);
        Time done = null;
        while (!generated.isEmpty() && completed.remove(generated.first())) {
            done = generated.pollFirst();
        }
        if (done != null) {
            // A write is queued whenever none is waiting; one waiting takes the newer checkpoint instead.
            if (waiting.getAndSet(pendingOf(done)) == null) {
                io.execute(this::writeNewest);
            }
        }
    }

    private void writeNewest() {
        Pending pending = waiting.getAndSet(null);
        if (pending != null) {
            write(pending);
        }
    }

    /**
     * The checkpoint of {@code done}, and what the state checkpoints still use, taken together on the event
     * loop: a state checkpoint completing after this belongs to a batch after {@code done}, whose files the
     * store keeps anyway, and it builds on one that is in use now.
     */
    private Pending pendingOf(Time done) {
        List<OperatorRecord> inUse = new ArrayList<>();
        for (StateCheckpointObserver<?, ?> state : states) {
            inUse.addAll(state.inUse());
        }
        return new Pending(checkpointOf(done), inUse);
    }

    private Checkpoint checkpointOf(Time done) {
        List<Time> pending = new ArrayList<>(generated);
        Map<String, String> operators = new LinkedHashMap<>();
        for (Operator<?> op : graph.operators()) {
            operators.put(op.stableId(), op.kind());
        }
        List<StateLifecycle.Saved> saved = new ArrayList<>();
        for (StateCheckpointObserver<?, ?> state : states) {
            state.savedAsOf(done).ifPresent(saved::add);
        }
        // A restart recomputes the batches after each state checkpoint (without their outputs) and whatever
        // windows remember: the sources must read those batches again, so their positions are saved too.
        Time from = done;
        for (StateLifecycle.Saved s : saved) {
            from = s.time().isBefore(from) ? s.time() : from;
        }
        for (Operator<?> op : graph.operators()) {
            Duration remember = op.rememberDuration();
            if (remember != null && done.minus(remember).isBefore(from)) {
                from = done.minus(remember);
            }
        }
        List<Time> times = new ArrayList<>(grid.timesFrom(from.isBefore(grid.zero()) ? grid.zero() : from, done));
        times.addAll(pending);
        List<Checkpoint.SourcePosition> positions = new ArrayList<>();
        for (SourceOperator<?> input : graph.inputs()) {
            for (Time t : times) {
                input.positionAfter(t).ifPresent(p -> positions.add(
                        new Checkpoint.SourcePosition(input.stableId(), t, p)));
            }
        }
        return new Checkpoint(done, grid.step(), grid.zero(), pending, grid.next(lastGenerated), operators, positions,
                saved.stream().map(StateLifecycle.Saved::record).toList());
    }

    private void write(Pending pending) {
        Checkpoint checkpoint = pending.checkpoint();
        try {
            store.write(checkpoint, pending.stateInUse());
        } catch (Exception e) {
            // Processing goes on; the next batch writes a newer checkpoint. A restart before that one
            // succeeds runs the batches since the last good checkpoint again.
            LOG.warn("Could not write the checkpoint of batch {}; the next batch will try again",
                    checkpoint.batchTime(), e);
            return;
        }
        lastWritten = checkpoint.batchTime();
        for (SourceOperator<?> input : graph.inputs()) {
            try {
                input.checkpointWritten(checkpoint.batchTime());
            } catch (RuntimeException e) {
                LOG.warn("{} failed handling the checkpoint of batch {}", input.describe(), checkpoint.batchTime(), e);
            }
        }
    }

    /** The batch of the newest checkpoint this run wrote (for the Streaming page), or null before the first. */
    public Time lastWritten() {
        return lastWritten;
    }

    /** Waits for the checkpoints already submitted to be written. */
    @Override
    public void close() {
        io.shutdown();
        try {
            if (!io.awaitTermination(1, TimeUnit.MINUTES)) {
                LOG.warn("Checkpoint writes did not finish within a minute; the last ones may be missing");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
