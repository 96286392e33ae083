package io.sluice.dstream.internal.scaling;

import io.sluice.dstream.internal.state.StatePlacement;
import io.sluice.dstream.scheduler.BatchInfo;
import io.sluice.dstream.scheduler.StreamingListener;
import io.sluice.rdd.ExecutorLocation;
import io.sluice.rdd.Time;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Executor autoscaling for a running context: Spark Streaming's {@code ExecutorAllocationManager}, plus moving
 * state off an executor before it goes. A listener: on each completed batch (on the listener thread, which owns
 * all its state) it feeds the {@link ScalingPolicy}, and brings the executors to the policy's target.
 *
 * <p>Adding: asks the cluster manager for the new total; executors that register get state partitions at once
 * ({@link StatePlacement}: partition i on the i-th executor). Removing: picks an executor running no receiver
 * (the newest), places the state on the others, and kills it once a batch that started after that completed with
 * no state partition left on it (after {@value #DRAIN_BATCHES} such batches it is killed anyway: the state still
 * there is recomputed from its lineage, exactly, just slower). At start, the target is
 * {@code spark.executor.instances} (else the minimum) within the bounds, so a standalone cluster that granted
 * more executors than that is brought down to it the same way. With {@code repartitionState}, each stateful
 * operator is re-partitioned to {@code partitionsPerExecutor} partitions per placed executor when that count
 * changes.
 */
public final class Autoscaler implements StreamingListener {
    private static final Logger LOG = LoggerFactory.getLogger(Autoscaler.class);
    static final int DRAIN_BATCHES = 3;

    /** An executor being removed: state placed elsewhere since {@code since}; killed once {@code killedAt >= 0}. */
    private static final class Removal {
        final ExecutorLocation executor;
        final long since;
        int batchesAfter;
        long killedAt = -1;

        Removal(ExecutorLocation executor, long since) {
            this.executor = executor;
            this.since = since;
        }
    }

    private final AutoscalingSettings settings;
    private final ExecutorAllocation allocation;
    private final StatefulOperators operators;
    private final LongSupplier clock;
    private final Supplier<Set<String>> receiverExecutors;
    private final int minExecutors;
    private final long patienceMillis;
    private final ScalingPolicy policy;
    private int target;
    private long requestedAt;
    private Removal removal;
    private List<ExecutorLocation> placed = List.of();

    /**
     * @param clock the context's clock, which batch times are read on
     * @param receivers how many receivers the context runs (the default minimum)
     * @param receiverExecutors the executors running a receiver now
     * @param startExecutors the executor count to begin with (before the bounds), or null for the minimum
     */
    public Autoscaler(AutoscalingSettings settings, ExecutorAllocation allocation, StatefulOperators operators,
            LongSupplier clock, long batchMillis, int receivers, Supplier<Set<String>> receiverExecutors,
            Integer startExecutors) {
        this.settings = settings;
        this.allocation = allocation;
        this.operators = operators;
        this.clock = clock;
        this.receiverExecutors = receiverExecutors;
        this.minExecutors = settings.minExecutors(receivers);
        this.patienceMillis = 2 * settings.scalingInterval().toMillis();
        long now = clock.getAsLong();
        this.policy = new ScalingPolicy(settings, batchMillis, now);
        int start = startExecutors == null ? minExecutors : startExecutors;
        this.target = Math.max(minExecutors, Math.min(settings.maxExecutors(), start));
        this.requestedAt = now;
        allocation.requestTotal(target);
        LOG.info("Autoscaling executors in [{}, {}] from {}, every {} at ratios up {} and down {}", minExecutors,
                settings.maxExecutors(), target, settings.scalingInterval(), settings.upRatio(), settings.downRatio());
    }

    @Override
    public void onBatchCompleted(BatchCompleted event) {
        try {
            batchCompleted(event.batchInfo());
        } catch (RuntimeException e) { // never let scaling stop the listener bus or the job
            LOG.warn("Autoscaling failed after batch {}; trying again after the next one", event.batchInfo()
                    .batchTime(), e);
        }
    }

    private void batchCompleted(BatchInfo info) {
        long now = clock.getAsLong();
        policy.batchCompleted(info.processingDelay(), info.failed());
        List<ExecutorLocation> executors = allocation.executors();
        advanceRemoval(info, executors, now);
        if (removal == null && executors.size() > target) {
            startRemoval(executors, now);
        }
        boolean requestPending = executors.size() < target && now - requestedAt < patienceMillis;
        place(executors);
        policy.decide(now, executors.size(), minExecutors, requestPending || removal != null).ifPresent(d -> {
            LOG.info("Processing took {} of the batch interval on average over {} batches: {} executors, to {}",
                    String.format("%.2f", d.ratio()), d.batches(), executors.size(), d.target());
            target = d.target();
            if (target > executors.size()) {
                requestedAt = now;
                allocation.requestTotal(target);
            } else {
                startRemoval(executors, now);
                place(executors);
            }
        });
    }

    private void startRemoval(List<ExecutorLocation> executors, long now) {
        Set<String> busy = receiverExecutors.get();
        List<ExecutorLocation> candidates = new ArrayList<>();
        for (ExecutorLocation e : executors) {
            if (!busy.contains(e.executorId())) {
                candidates.add(e);
            }
        }
        if (candidates.isEmpty()) {
            LOG.info("Not removing an executor: each of the {} runs a receiver", executors.size());
            target = executors.size();
            return;
        }
        candidates.sort(StatePlacement.ORDER);
        removal = new Removal(candidates.get(candidates.size() - 1), now);
        LOG.info("Removing executor {}: moving its state partitions to the other executors first",
                removal.executor.executorId());
    }

    private void advanceRemoval(BatchInfo info, List<ExecutorLocation> executors, long now) {
        Removal r = removal;
        if (r == null) {
            return;
        }
        if (!executors.contains(r.executor)) {
            LOG.info("Executor {} is removed", r.executor.executorId());
            removal = null;
        } else if (r.killedAt >= 0) {
            if (now - r.killedAt >= patienceMillis) {
                LOG.warn("Executor {} is still registered {} ms after it was killed; deciding again",
                        r.executor.executorId(), now - r.killedAt);
                removal = null;
            }
        } else if (info.processingStartTime() >= r.since) {
            r.batchesAfter++;
            boolean stateLeft = !operators.stateOn(r.executor, info.batchTime());
            if (stateLeft || r.batchesAfter >= DRAIN_BATCHES) {
                if (!stateLeft) {
                    LOG.warn("Executor {} still holds state after {} batches; killing it anyway: the batch that "
                            + "needs that state recomputes it from lineage", r.executor.executorId(), r.batchesAfter);
                }
                r.killedAt = now;
                allocation.kill(r.executor.executorId());
            }
        }
    }

    /** Places state on the executors that stay; re-partitions it when their number changed, if asked to. */
    private void place(List<ExecutorLocation> executors) {
        List<ExecutorLocation> staying = new ArrayList<>(executors);
        if (removal != null) {
            staying.remove(removal.executor);
        }
        staying.sort(StatePlacement.ORDER);
        if (staying.equals(placed)) {
            return;
        }
        operators.placeOn(staying);
        if (settings.repartitionState() && !staying.isEmpty() && staying.size() != placed.size()) {
            operators.repartition(staying.size() * settings.partitionsPerExecutor());
        }
        placed = List.copyOf(staying);
    }
}
