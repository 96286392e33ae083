package io.sluice.rdd;

import java.io.Serializable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The times a stream (or anything slid along with it) has batches at: {@code zero + k * step} for k ≥ 1. Every
 * computation of "is this a batch time", "the batch that holds this instant", "the batches between two times"
 * goes through one grid, so the engine has one formula for each.
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

    /** The grid of {@code step} whose zero is the grid time at or before {@code now} (a fresh start). */
    public static BatchGrid startingAt(Time now, Duration step) {
        return new BatchGrid(now.floor(step), step);
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
        long steps = Math.floorDiv(time.milliseconds() - zero.milliseconds(), step.toMillis());
        return new Time(zero.milliseconds() + steps * step.toMillis());
    }

    /** The first batch time strictly after {@code time}. */
    public Time next(Time time) {
        return floor(time).plus(step);
    }

    /** The batch times in (fromExclusive, toInclusive], oldest first. */
    public List<Time> between(Time fromExclusive, Time toInclusive) {
        List<Time> times = new ArrayList<>();
        for (Time t = next(fromExclusive); !t.isAfter(toInclusive); t = t.plus(step)) {
            times.add(t);
        }
        return times;
    }

    /** Whether {@code d} is a whole multiple of {@code unit} (both in milliseconds; a zero unit divides nothing). */
    public static boolean isMultiple(Duration d, Duration unit) {
        long u = unit.toMillis();
        return u > 0 && d.toMillis() % u == 0;
    }
}
