package io.sluice.rdd;

import java.io.Serializable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The times a stream (or anything slid along with it) has batches at: {@code zero + k * step} for k ≥ 1. Every
 * computation of "is this a batch time", "the batch that holds this instant", "the batches between two times",
 * "which batch of the grid is this" goes through a grid, so the engine has one formula for each: the operators
 * (their slides, checkpoint intervals and slices), the recovery plan, the checkpoint writer, the sources (the
 * generator's batch numbers, a replay's placement of records), the replay clock and the write-ahead log's
 * segments. A grid counted from the epoch ({@link #ofEpoch}) is where a fresh start's batches fall.
 *
 * @param zero the time just before the first batch (the first batch is at {@code zero + step})
 * @param step the batch interval, or an operator's slide or checkpoint interval (whole, positive milliseconds)
 */
public record BatchGrid(Time zero, Duration step) implements Serializable {
    public BatchGrid {
        if (zero == null || step == null) {
            throw new IllegalArgumentException("a batch grid needs a zero time and a step");
        }
        if (step.toMillis() <= 0 || !step.equals(Duration.ofMillis(step.toMillis()))) {
            throw new IllegalArgumentException("a batch grid's step must be a positive whole number of milliseconds, "
                    + "was " + step);
        }
    }

    /** The grid of {@code step} counted from the epoch (zero at 0 ms). */
    public static BatchGrid ofEpoch(Duration step) {
        return new BatchGrid(new Time(0), step);
    }

    /** The grid of {@code step} whose zero is the epoch grid's time at or before {@code now} (a fresh start). */
    public static BatchGrid startingAt(Time now, Duration step) {
        return new BatchGrid(ofEpoch(step).floor(now), step);
    }

    /** Whether {@code time} is a batch time of this grid: after zero, a whole number of steps from it. */
    public boolean contains(Time time) {
        return time.isAfter(zero) && isMultiple(time.minus(zero), step);
    }

    /** Whether {@code time} is zero or a batch time (a whole number of steps from zero, not before it). */
    public boolean isOnGrid(Time time) {
        return !time.isBefore(zero) && isMultiple(time.minus(zero), step);
    }

    /** The same zero with another step (an operator's slide or checkpoint interval). */
    public BatchGrid withStep(Duration otherStep) {
        return new BatchGrid(zero, otherStep);
    }

    /** The first batch time. */
    public Time first() {
        return zero.plus(step);
    }

    /** The latest grid time (zero included) not after {@code time}. */
    public Time floor(Time time) {
        return new Time(zero.milliseconds() + stepsFromZero(time) * step.toMillis());
    }

    /** The first batch time strictly after {@code time}. */
    public Time next(Time time) {
        return floor(time).plus(step);
    }

    /** The batch whose interval {@code (t - step, t]} holds {@code instant}: the first grid time at or after it. */
    public Time batchHolding(Time instant) {
        Time floor = floor(instant);
        return floor.equals(instant) ? floor : floor.plus(step);
    }

    /** How many whole steps lie between zero and {@link #floor}{@code (time)} (negative before zero). */
    public long stepsFromZero(Time time) {
        return Math.floorDiv(time.milliseconds() - zero.milliseconds(), step.toMillis());
    }

    /** The batch times in (fromExclusive, toInclusive], oldest first. */
    public List<Time> between(Time fromExclusive, Time toInclusive) {
        List<Time> times = new ArrayList<>();
        for (Time t = next(fromExclusive); !t.isAfter(toInclusive); t = t.plus(step)) {
            times.add(t);
        }
        return times;
    }

    /** The grid times in [fromInclusive, toInclusive] (zero too, if it is in there), oldest first. */
    public List<Time> timesFrom(Time fromInclusive, Time toInclusive) {
        return between(fromInclusive.minus(Duration.ofMillis(1)), toInclusive);
    }

    /** Whether {@code d} is a whole multiple of {@code unit} (both in milliseconds; a zero unit divides nothing). */
    public static boolean isMultiple(Duration d, Duration unit) {
        long u = unit.toMillis();
        return u > 0 && d.toMillis() % u == 0;
    }
}
