package io.sluice.kafka;

import java.util.ArrayList;
import java.util.List;

/** A batch's offset ranges as the text the checkpoint stores: one range a line, {@code topic partition from until}. */
final class RangesText {
    private RangesText() {
    }

    static String encode(OffsetRange[] ranges) {
        StringBuilder text = new StringBuilder();
        for (OffsetRange r : ranges) {
            text.append(r.topic()).append(' ').append(r.partition()).append(' ').append(r.fromOffset()).append(' ')
                    .append(r.untilOffset()).append('\n');
        }
        return text.toString();
    }

    static OffsetRange[] decode(String text) {
        List<OffsetRange> ranges = new ArrayList<>();
        for (String line : text.split("\n")) {
            if (line.isBlank()) {
                continue;
            }
            String[] f = line.split(" ");
            if (f.length != 4) {
                throw new IllegalArgumentException("not an offset range (topic partition from until): " + line);
            }
            ranges.add(OffsetRange.create(f[0], Integer.parseInt(f[1]), Long.parseLong(f[2]), Long.parseLong(f[3])));
        }
        return ranges.toArray(new OffsetRange[0]);
    }
}
