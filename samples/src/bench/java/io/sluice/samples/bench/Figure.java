package io.sluice.samples.bench;

import java.util.Locale;

/**
 * What a workload's figure measures and which way is better. The ratio is always Sluice's figure divided by
 * Spark Streaming's; a workload passes when the ratio is at least its target (higher is better) or at most its
 * target (lower is better).
 *
 * @param name short name for tables, e.g. "throughput"
 * @param unit unit of the figure, e.g. "records/s"
 */
public record Figure(String name, String unit, boolean higherIsBetter) {
    /** Records per batch divided by the median processing time of the counted batches. */
    public static final Figure THROUGHPUT = new Figure("throughput", "records/s", true);
    /** Median processing time of the counted batches. */
    public static final Figure MS_PER_BATCH = new Figure("median ms per batch", "ms", false);

    public Figure {
        if (name == null || name.isBlank() || unit == null || unit.isBlank()) {
            throw new IllegalArgumentException("a figure needs a name and a unit");
        }
    }

    /** Any other figure where less is better (seconds to recover, bytes per checkpoint, ...). */
    public static Figure lowerIsBetter(String name, String unit) {
        return new Figure(name, unit, false);
    }

    public boolean passes(double ratio, double target) {
        return higherIsBetter ? ratio >= target : ratio <= target;
    }

    /** The target as a table shows it, e.g. "≥ 1.5×". */
    public String describeTarget(double target) {
        return (higherIsBetter ? "≥ " : "≤ ") + target + "×";
    }

    /** A figure as a table shows it: throughput in k records/s, the rest in its unit. */
    public String format(double value) {
        if (Double.isInfinite(value)) {
            return "none"; // a side without a figure, e.g. L1 when no interval is sustained
        }
        if (this.equals(THROUGHPUT)) {
            return String.format(Locale.ROOT, "%,.0f k records/s", value / 1000);
        }
        return String.format(Locale.ROOT, value >= 100 ? "%,.0f %s" : "%.1f %s", value, unit);
    }
}
