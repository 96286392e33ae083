package io.sluice.dstream.internal;

import io.sluice.rdd.Time;

/** One output operation's work for one batch. */
public record Job(Time time, OutputOperation<?> output, Runnable body) {
}
