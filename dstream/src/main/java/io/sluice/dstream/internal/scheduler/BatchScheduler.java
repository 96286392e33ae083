package io.sluice.dstream.internal.scheduler;

import io.sluice.dstream.internal.StreamGraph;
import io.sluice.dstream.internal.Job;
import io.sluice.dstream.Clock;
import io.sluice.rdd.Time;
import io.sluice.dstream.scheduler.BatchInfo;
import io.sluice.dstream.scheduler.OutputOperationInfo;
import io.sluice.dstream.scheduler.StateOperatorInfo;
import io.sluice.dstream.scheduler.StreamingListener;
import io.sluice.dstream.source.BatchReport;
import io.sluice.rdd.Deadline;
import io.sluice.rdd.internal.JobTags;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Drives batches. One event loop thread owns all scheduling state: timer ticks generate a batch's jobs,
 * job starts and ends update it, and a finished batch is checkpointed and its old RDDs forgotten. Jobs run
 * on a separate bounded pool (one thread by default, so batches and their output operations run in order).
 */
public final class BatchScheduler {
    private static final Logger LOG = LoggerFactory.getLogger(BatchScheduler.class);

    /** Called on the event loop thread around each batch; recovery implements it to record progress. */
    public interface BatchObserver {
        /**
         * Jobs this observer adds to batch {@code time}, run after its output operations; asked when the batch
         * is generated, right after the outputs' jobs.
         */
        default List<Job> jobs(Time time) {
            return List.of();
        }

        default void batchGenerated(Time time) {
        }

        default void batchCompleted(Time time) {
        }

        /** Called before {@link #batchCompleted} when an output operation of the batch failed. */
        default void batchFailed(Time time) {
        }
    }

    /**
     * Which batches run together: a batch that closes its group starts the group's run. Batches of a group
     * compute their split outputs in one Spark job ({@link GroupRun}) and complete one by one, in order.
     */
    @FunctionalInterface
    public interface Groups {
        /** Every batch alone: each job runs as soon as its batch is generated. */
        Groups NONE = time -> true;

        boolean closesGroup(Time time);
    }

    private sealed interface Event permits GenerateBatch, JobStarted, JobFinished, NothingToRun, Flush, Shutdown {
    }

    private record GenerateBatch(Time time) implements Event {
    }

    private record JobStarted(Time time, int outputId, long at) implements Event {
    }

    private record JobFinished(Time time, int outputId, long at, Throwable error) implements Event {
    }

    /** A grouped batch without jobs reached its turn. */
    private record NothingToRun(Time time) implements Event {
    }

    /** Runs the batches of an unfinished group (no more are coming: a stop, a stepped timer's last batch). */
    private record Flush() implements Event {
    }

    private record Shutdown() implements Event {
    }

    private final StreamGraph graph;
    private final Clock clock;
    private final ListenerBus listeners;
    private final Consumer<Throwable> errors;
    private final List<BatchObserver> observers;
    private final Groups groups;
    private final List<BatchRun> group = new ArrayList<>(); // generated, waiting for their group; event loop only
    private final String name;
    private final ExecutorService jobPool;
    private final BlockingQueue<Event> events = new LinkedBlockingQueue<>();
    private final Thread loop;
    private final Map<Time, BatchRun> running = new HashMap<>(); // event loop thread only
    private final AtomicInteger unfinished = new AtomicInteger(); // batches posted but not completed
    private final Set<Time> inFlight = ConcurrentHashMap.newKeySet(); // batches whose jobs may be running
    private volatile boolean cancelling; // a forced stop interrupts running jobs: their errors are not failures
    private BatchTimer timer;
    private volatile Time steppedThrough; // a stepped timer's last allowed batch: it closes its group

    public BatchScheduler(StreamGraph graph, Clock clock, ListenerBus listeners, Consumer<Throwable> errors,
            List<BatchObserver> observers, int concurrentJobs, String name, Groups groups) {
        this.groups = groups;
        this.graph = graph;
        this.clock = clock;
        this.listeners = listeners;
        this.errors = errors;
        this.observers = List.copyOf(observers);
        this.name = name;
        AtomicInteger threads = new AtomicInteger();
        this.jobPool = Executors.newFixedThreadPool(concurrentJobs, r -> {
            Thread t = new Thread(r, "sluice-job-" + name + "-" + threads.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        this.loop = new Thread(this::runLoop, "sluice-batch-scheduler-" + name);
        this.loop.setDaemon(true);
    }

    /**
     * Starts the loop; {@code rerun} batches (from a recovered checkpoint) are generated first, then the timer
     * fires from {@code firstTimerBatch} on; a {@code stepped} timer fires only the batches {@link #allow}ed.
     */
    public void start(List<Time> rerun, Time firstTimerBatch, boolean stepped) {
        loop.start();
        for (Time t : rerun) {
            post(new GenerateBatch(t));
        }
        timer = new BatchTimer(clock, graph.batchInterval(), firstTimerBatch, t -> post(new GenerateBatch(t)), name,
                stepped ? firstTimerBatch.minus(graph.batchInterval()) : null);
        timer.start();
    }

    /** Lets a stepped scheduler's timer fire {@code n} more batches; returns the time of the last of them. */
    public Time allow(int n) {
        Time last = timer.allow(n);
        steppedThrough = last;
        post(new Flush()); // what an earlier step generated waits no longer
        return last;
    }

    /**
     * Stops generating batches. Gracefully: waits (up to {@code timeout}) for every generated batch to finish,
     * and when {@code pendingInput} says received data waits for a batch, one more batch (the next batch time,
     * generated at once) takes it; otherwise cancels the running Spark jobs. Returns the last batch time the
     * timer fired.
     */
    public Time stop(boolean gracefully, Duration timeout, java.util.function.BooleanSupplier pendingInput) {
        Time last = timer == null ? null : timer.stop();
        post(new Flush());
        boolean drained = false;
        if (gracefully) {
            if (last != null && pendingInput.getAsBoolean()) {
                last = last.plus(graph.batchInterval());
                post(new GenerateBatch(last));
            }
            drained = awaitIdle(timeout);
            if (!drained) {
                LOG.warn("Graceful stop: batches still running after {}; cancelling them", timeout);
            }
        }
        if (!drained) {
            cancelling = true;
            // Spark's jobs first: a job thread interrupted first may end its batch, which then leaves inFlight
            // before its Spark job is cancelled, and that job's tasks would run on
            for (Time t : inFlight) {
                JobTags.cancel(graph.sparkContext().sc(), t.milliseconds());
            }
            jobPool.shutdownNow();
        }
        jobPool.shutdown();
        events.add(new Shutdown());
        try {
            // Job threads must be done before the caller may stop the SparkContext under them.
            if (!jobPool.awaitTermination(timeout.toMillis() + 1000, TimeUnit.MILLISECONDS)) {
                LOG.warn("Output operations still running after stop; they will fail when Spark stops");
            }
            Deadline.after(timeout.plusSeconds(1)).join(loop);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return last;
    }

    /** Blocks until every batch posted so far has completed, or {@code timeout} has passed. */
    private boolean awaitIdle(Duration timeout) {
        Deadline deadline = Deadline.after(timeout);
        synchronized (unfinished) {
            return deadline.await(unfinished, () -> unfinished.get() == 0);
        }
    }

    private void post(Event event) {
        if (event instanceof GenerateBatch) {
            unfinished.incrementAndGet();
        }
        events.add(event);
    }

    private void runLoop() {
        while (true) {
            Event event;
            try {
                event = events.take();
            } catch (InterruptedException e) {
                return;
            }
            try {
                if (event instanceof Shutdown) {
                    return;
                } else if (event instanceof GenerateBatch e) {
                    generate(e.time());
                } else if (event instanceof JobStarted e) {
                    jobStarted(e);
                } else if (event instanceof JobFinished e) {
                    jobFinished(e);
                } else if (event instanceof NothingToRun e) {
                    nothingToRun(e.time());
                } else if (event instanceof Flush) {
                    runGroup();
                }
            } catch (Throwable e) { // Scala code may throw checked exceptions; the loop must survive them
                LOG.error("Batch scheduler failed handling {}", event, e);
                errors.accept(e);
            }
        }
    }

    private void generate(Time time) {
        if (jobPool.isShutdown()) { // stop() shut the jobs down while this batch waited behind the one before
            notRun(time);
            return;
        }
        long submitted = clock.millis();
        List<Job> jobs;
        try {
            jobs = new ArrayList<>(graph.generateJobs(time));
            for (BatchObserver observer : observers) {
                jobs.addAll(observer.jobs(time));
            }
        } catch (Throwable e) { // also Errors and checked exceptions Scala code throws: the batch must complete
            LOG.error("Could not generate the jobs of batch {}", time, e);
            errors.accept(e);
            BatchRun failed = new BatchRun(time, submitted, Map.of(), List.of());
            failed.outputs.put(-1, new OutputOperationInfo(time, -1, "generate", "generating the batch's jobs",
                    submitted, submitted, String.valueOf(e.getMessage())));
            listeners.post(new StreamingListener.BatchSubmitted(failed.info()));
            complete(failed);
            return;
        }
        BatchRun run = new BatchRun(time, submitted, graph.inputReport(time), jobs);
        for (BatchObserver observer : observers) {
            observer.batchGenerated(time);
        }
        listeners.post(new StreamingListener.BatchSubmitted(run.info()));
        if (groups != Groups.NONE) {
            running.put(time, run);
            inFlight.add(time);
            group.add(run);
            if (groups.closesGroup(time) || time.equals(steppedThrough)) {
                runGroup();
            }
            return;
        }
        if (jobs.isEmpty()) {
            complete(run);
            return;
        }
        running.put(time, run);
        inFlight.add(time);
        try {
            for (Job job : jobs) {
                jobPool.execute(() -> runJob(job));
            }
        } catch (RejectedExecutionException e) { // stop() shut the jobs down since the check above
            notRun(time);
        }
    }

    /**
     * A batch a forced stop leaves out, as Spark Streaming leaves the jobs still queued at its stop: it never
     * completes (no listener event), and a job of it that did start is cancelled with the running ones.
     */
    private void notRun(Time time) {
        LOG.info("Batch {} is not run: the streaming context stopped", time);
        running.remove(time);
        inFlight.remove(time);
        ended();
    }

    /** A posted batch completed or was left out: {@link #awaitIdle} may be waiting for it. */
    private void ended() {
        synchronized (unfinished) {
            unfinished.decrementAndGet();
            unfinished.notifyAll();
        }
    }

    /** Hands the batches waiting for their group to a job thread, as one {@link GroupRun}. */
    private void runGroup() {
        if (group.isEmpty()) {
            return;
        }
        List<List<Job>> batches = new ArrayList<>();
        List<Time> times = new ArrayList<>();
        for (BatchRun run : group) {
            batches.add(run.jobs);
            times.add(run.time);
        }
        group.clear();
        if (jobPool.isShutdown()) { // stop() shut the jobs down: the group is not run
            times.forEach(this::notRun);
            return;
        }
        GroupRun run = new GroupRun(graph.sparkContext().sc(), clock, new GroupRun.Reports() {
            @Override
            public void started(Job job, long at) {
                post(new JobStarted(job.time(), job.outputId(), at));
            }

            @Override
            public void finished(Job job, long at, Throwable error) {
                post(new JobFinished(job.time(), job.outputId(), at, error));
            }

            @Override
            public void nothingToRun(Time time) {
                post(new NothingToRun(time));
            }
        }, this::runJob, () -> cancelling);
        jobPool.execute(() -> run.run(times, batches));
    }

    private void nothingToRun(Time time) {
        BatchRun run = running.remove(time);
        if (run != null) {
            run.processingStart = run.processingEnd = clock.millis();
            complete(run);
        }
    }

    private void runJob(Job job) {
        int outputId = job.outputId();
        post(new JobStarted(job.time(), outputId, clock.millis()));
        Throwable error = null;
        var sc = graph.sparkContext().sc();
        try {
            JobTags.tag(sc, job.time().milliseconds(), job.callSite());
            job.body().run();
        } catch (Throwable e) {
            error = e;
        } finally {
            JobTags.clear(sc);
        }
        post(new JobFinished(job.time(), outputId, clock.millis(), error));
    }

    private void jobStarted(JobStarted e) {
        BatchRun run = running.get(e.time());
        if (run == null) {
            return;
        }
        if (run.processingStart < 0) {
            run.processingStart = e.at();
            listeners.post(new StreamingListener.BatchStarted(run.info()));
        }
        OutputOperationInfo info = run.outputs.get(e.outputId());
        OutputOperationInfo started = new OutputOperationInfo(info.batchTime(), info.id(), info.name(),
                info.description(), e.at(), -1, null);
        run.outputs.put(e.outputId(), started);
        listeners.post(new StreamingListener.OutputOperationStarted(started));
    }

    private void jobFinished(JobFinished e) {
        BatchRun run = running.get(e.time());
        if (run == null) {
            return;
        }
        OutputOperationInfo info = run.outputs.get(e.outputId());
        String failure = e.error() == null ? null : String.valueOf(e.error().getMessage());
        OutputOperationInfo done = new OutputOperationInfo(info.batchTime(), info.id(), info.name(),
                info.description(), info.startTime(), e.at(), failure);
        run.outputs.put(e.outputId(), done);
        listeners.post(new StreamingListener.OutputOperationCompleted(done));
        if (e.error() != null && cancelling) {
            LOG.info("Output operation {} of batch {} was cancelled by stop()", info.description(), e.time());
        } else if (e.error() != null) {
            LOG.error("Output operation {} of batch {} failed", info.description(), e.time(), e.error());
            errors.accept(e.error());
        }
        run.remaining--;
        if (run.remaining == 0) {
            run.processingEnd = e.at();
            running.remove(e.time());
            complete(run);
        }
    }

    private void complete(BatchRun run) {
        inFlight.remove(run.time);
        if (!run.outputs.containsKey(-1)) {
            // Some sources learn their counts only as the batch's tasks read (file streams); ask again.
            run.input = graph.inputReport(run.time);
        }
        try {
            run.state = graph.stateReport(run.time); // what the tasks that computed the state reported
            boolean failed = run.outputs.values().stream().anyMatch(o -> o.failureReason() != null);
            for (BatchObserver observer : observers) {
                if (failed) {
                    observer.batchFailed(run.time);
                }
                observer.batchCompleted(run.time);
            }
            graph.clearOlderThanNeeded(run.time);
        } finally {
            listeners.post(new StreamingListener.BatchCompleted(run.info()));
            ended();
        }
    }

    /** A batch in flight; touched only by the event loop. */
    private static final class BatchRun {
        final Time time;
        final long submitted;
        Map<String, BatchReport> input;
        Map<String, StateOperatorInfo> state = Map.of(); // known once the batch completed
        final Map<Integer, OutputOperationInfo> outputs = new LinkedHashMap<>();
        final List<Job> jobs;
        int remaining;
        long processingStart = -1;
        long processingEnd = -1;

        BatchRun(Time time, long submitted, Map<String, BatchReport> input, List<Job> jobs) {
            this.time = time;
            this.submitted = submitted;
            this.input = input;
            this.jobs = List.copyOf(jobs);
            this.remaining = jobs.size();
            for (Job job : jobs) {
                outputs.put(job.outputId(), new OutputOperationInfo(time, job.outputId(), job.kind(), job.callSite(),
                        -1, -1, null));
            }
        }

        BatchInfo info() {
            BatchReport total = BatchReport.sum(input.values());
            return new BatchInfo(time, total.records(), total.skipped(), submitted, processingStart, processingEnd,
                    outputs, input, state);
        }
    }
}
