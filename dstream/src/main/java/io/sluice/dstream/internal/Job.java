package io.sluice.dstream.internal;

import io.sluice.rdd.Time;

/**
 * One job of a batch: an output operation's work, or a job the batch runs after its outputs (a state
 * checkpoint). {@code outputId}, {@code kind} and {@code callSite} identify it in listener events.
 */
public record Job(Time time, int outputId, String kind, String callSite, Runnable body) {
}
