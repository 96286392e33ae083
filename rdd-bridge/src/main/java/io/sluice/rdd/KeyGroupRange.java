package io.sluice.rdd;

import java.io.Serializable;

/** The key groups [start, end) held by one state partition. */
public record KeyGroupRange(int start, int end) implements Serializable {
    public KeyGroupRange {
        if (start < 0 || end < start) {
            throw new IllegalArgumentException("invalid key group range [" + start + ", " + end + ")");
        }
    }

    public boolean contains(int keyGroup) {
        return keyGroup >= start && keyGroup < end;
    }

    /** Whether the two ranges share a key group. */
    public boolean overlaps(KeyGroupRange other) {
        return start < other.end && other.start < end;
    }

    public int size() {
        return end - start;
    }
}
