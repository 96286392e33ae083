package io.sluice.dstream.source.internal.rate;

import io.sluice.rdd.Time;

/** A source whose intake a {@link RateController} can set (backpressure). Rates are records per second. */
public interface RateLimitedSource {
    String sourceName();

    /** The configured ceiling, 0 for none: backpressure never sets a rate above it. */
    long maxRate();

    /** The rate in force now, 0 for unlimited. */
    long currentRate();

    void updateRate(long recordsPerSecond);

    /** How many records this source put into batch {@code time}, or -1 if it no longer knows. */
    long recordsAt(Time time);
}
