package io.sluice.dstream.internal.rate;

import io.sluice.dstream.Settings;
import java.util.function.Function;

/**
 * The backpressure settings the engine reads when it starts an input stream: whether it runs a
 * {@link RateController} for the stream, the rate until the first estimate, and the PID estimator's gains. Each
 * Sluice key falls back to the Spark Streaming key of the same meaning ({@code spark.streaming.backpressure.*}).
 */
public record RateSettings(boolean enabled, long initialRate, double proportional, double integral,
        double derivative, double minRate) {
    public RateSettings {
        if (initialRate < 0 || minRate <= 0) {
            throw new IllegalArgumentException(Settings.BACKPRESSURE_INITIAL_RATE + " must not be negative (was "
                    + initialRate + ") and " + Settings.BACKPRESSURE_PID_MIN_RATE + " must be positive (was "
                    + minRate + ")");
        }
        if (proportional < 0 || integral < 0 || derivative < 0) {
            throw new IllegalArgumentException("PID gains must not be negative: " + proportional + ", " + integral
                    + ", " + derivative);
        }
    }

    /** Reads the settings through {@code conf}, which returns null for a key that is not set. */
    public static RateSettings from(Function<String, String> conf) {
        String enabled = value(conf, Settings.BACKPRESSURE_ENABLED);
        String initialRate = value(conf, Settings.BACKPRESSURE_INITIAL_RATE);
        try {
            return new RateSettings(Boolean.parseBoolean(enabled),
                    initialRate == null ? 0 : Long.parseLong(initialRate),
                    number(conf, Settings.BACKPRESSURE_PID_PROPORTIONAL, 1.0),
                    number(conf, Settings.BACKPRESSURE_PID_INTEGRAL, 0.2),
                    number(conf, Settings.BACKPRESSURE_PID_DERIVED, 0.0),
                    number(conf, Settings.BACKPRESSURE_PID_MIN_RATE, 100));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(Settings.BACKPRESSURE_INITIAL_RATE + " must be a whole number, was '"
                    + initialRate + "'", e);
        }
    }

    /** {@code key}'s value, else the Spark Streaming key's ({@code sluice.} replaced by {@code spark.streaming.}). */
    private static String value(Function<String, String> conf, String key) {
        String v = conf.apply(key);
        if (v == null) {
            v = conf.apply("spark.streaming." + key.substring("sluice.".length()));
        }
        return v == null ? null : v.trim();
    }

    private static double number(Function<String, String> conf, String key, double dflt) {
        String v = value(conf, key);
        try {
            return v == null ? dflt : Double.parseDouble(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " must be a number, was '" + v + "'", e);
        }
    }
}
