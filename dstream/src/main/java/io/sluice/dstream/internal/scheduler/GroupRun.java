package io.sluice.dstream.internal.scheduler;

import io.sluice.dstream.Clock;
import io.sluice.dstream.internal.Job;
import io.sluice.rdd.Time;
import io.sluice.rdd.internal.JobTags;
import io.sluice.rdd.internal.Jobs;
import io.sluice.rdd.internal.TaskSlots;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.apache.spark.SparkContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a group of consecutive batches (Drizzle's group scheduling, for a replay): the tasks of every split job
 * of every batch ({@link Job.Parts}, e.g. {@code saveAsTextFiles} writing part files) run in one Spark job, so
 * that its fixed costs are paid once per group rather than once per output and batch. Then, batch after batch
 * and in output order, each job finishes on its own: a split job commits (its output appears), any other job
 * (a {@code foreachRDD}, a state checkpoint) runs whole, as it would alone. So each batch's output is committed
 * separately and in order, and user code sees each batch as before.
 *
 * <p>If the group's job fails, nothing of it was committed: the batches then run one by one, each job whole, and
 * a failure names its output operation and batch as without grouping.
 */
final class GroupRun {
    private static final Logger LOG = LoggerFactory.getLogger(GroupRun.class);

    /** How the run reports its jobs' progress to the scheduler's event loop. */
    interface Reports {
        void started(Job job, long at);

        void finished(Job job, long at, Throwable error);

        void nothingToRun(Time time);
    }

    private final SparkContext sc;
    private final Clock clock;
    private final Reports reports;
    private final Consumer<Job> runAlone;
    private final BooleanSupplier cancelling;

    GroupRun(SparkContext sc, Clock clock, Reports reports, Consumer<Job> runAlone, BooleanSupplier cancelling) {
        this.sc = sc;
        this.clock = clock;
        this.reports = reports;
        this.runAlone = runAlone;
        this.cancelling = cancelling;
    }

    /** Runs {@code batches} (each batch's jobs, in output order) at {@code times}, oldest first. */
    void run(List<Time> times, List<List<Job>> batches) {
        long start = clock.millis();
        Map<Job, Job.Parts> parts = new IdentityHashMap<>();
        Throwable failure = null;
        try {
            JobTags.tag(sc, times.get(0).milliseconds(),
                    "batches " + times.get(0) + " to " + times.get(times.size() - 1));
            List<Jobs.Work<?, ?>> works = new ArrayList<>();
            for (List<Job> jobs : batches) {
                for (Job job : jobs) {
                    if (job.split() != null) {
                        reports.started(job, start);
                        Job.Parts prepared = job.split().prepare();
                        parts.put(job, prepared);
                        works.add(prepared.work());
                    }
                }
            }
            if (!works.isEmpty()) {
                Jobs.eachPartitionOfEach(works, tasks(sc));
            }
        } catch (Throwable e) {
            failure = e;
            if (!cancelling.getAsBoolean()) {
                LOG.warn("The group of batches {} to {} failed in its shared job; running them one by one",
                        times.get(0), times.get(times.size() - 1), e);
            }
        } finally {
            JobTags.clear(sc);
        }
        for (int b = 0; b < batches.size(); b++) {
            if (batches.get(b).isEmpty()) {
                reports.nothingToRun(times.get(b));
            }
            for (Job job : batches.get(b)) {
                if (job.split() == null) {
                    runAlone.accept(job);
                } else {
                    finish(job, parts.get(job), failure == null);
                }
            }
        }
    }

    /**
     * The group job's tasks: one per task slot (at most the default parallelism). Each task deserializes the whole
     * group's lineage (every batch's RDDs), so tasks beyond the slots would only repeat that, one after another.
     */
    private static int tasks(SparkContext sc) {
        int slots = TaskSlots.of(sc);
        return slots > 0 ? Math.min(sc.defaultParallelism(), slots) : sc.defaultParallelism();
    }

    /** Commits a split job whose tasks ran, or runs it whole when they did not. */
    private void finish(Job job, Job.Parts prepared, boolean tasksRan) {
        Throwable error = null;
        try {
            JobTags.tag(sc, job.time().milliseconds(), job.callSite());
            if (prepared == null) {
                reports.started(job, clock.millis()); // the group failed before preparing it
            }
            if (cancelling.getAsBoolean()) {
                throw new CancellationException("stopped before batch " + job.time() + " committed");
            }
            if (tasksRan) {
                prepared.commit();
            } else {
                closeQuietly(prepared); // the whole run starts afresh
                job.body().run();
            }
        } catch (Throwable e) {
            error = e;
        } finally {
            closeQuietly(prepared);
            JobTags.clear(sc);
        }
        reports.finished(job, clock.millis(), error);
    }

    private static void closeQuietly(Job.Parts prepared) {
        if (prepared == null) {
            return;
        }
        try {
            prepared.close();
        } catch (RuntimeException e) {
            LOG.warn("Could not clean up after {}", prepared.work().rdd(), e);
        }
    }
}
