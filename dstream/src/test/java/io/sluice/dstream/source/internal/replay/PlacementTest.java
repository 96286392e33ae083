package io.sluice.dstream.source.internal.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The placement rule as a table: timestamps in recorded order, the batch each goes to, and which are late. */
class PlacementTest {
    private static List<String> place(long lateness, long... timestamps) {
        Placement p = new Placement(1000, lateness, Placement.NONE);
        List<String> placed = new ArrayList<>();
        for (long ts : timestamps) {
            boolean late = p.isLate(ts);
            placed.add(p.place(ts) + (late ? " late" : ""));
        }
        return placed;
    }

    @Test
    void aBatchHoldsTheTimestampsOfItsIntervalEndIncluded() {
        assertEquals(List.of("1000", "1000", "2000", "2000"), place(0, 1, 1000, 1001, 2000));
    }

    @Test
    void outOfOrderWithinTheLatenessIsPlacedInItsOwnBatch() {
        assertEquals(List.of("3000", "2000", "1000"), place(1500, 2500, 1600, 1000));
    }

    @Test
    void laterThanTheLatenessGoesToTheFirstOpenBatch() {
        // after 5300 with 1500 ms lateness, batches up to 3000 are closed: 2000 is late, goes to 4000
        assertEquals(List.of("6000", "4000 late", "4000"), place(1500, 5300, 2000, 3801));
        // no lateness: a record of an earlier batch than the newest is late; one of the same batch is not
        assertEquals(List.of("2000", "2000", "2000 late"), place(0, 2000, 1001, 999));
    }
}
