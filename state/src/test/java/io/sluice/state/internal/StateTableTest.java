package io.sluice.state.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class StateTableTest {
    /** Keys whose hash codes collide in the low bits, to exercise probe runs and backward-shift removal. */
    private record Colliding(int id) {
        @Override
        public int hashCode() {
            return id % 7;
        }
    }

    private static Map<Object, Object> contents(StateTable t) {
        Map<Object, Object> m = new HashMap<>();
        for (int i = t.nextSlot(0); i >= 0; i = t.nextSlot(i + 1)) {
            m.put(t.keyAt(i), t.valueAt(i));
        }
        return m;
    }

    @Test
    void randomPutsAndRemovesMatchAHashMap() {
        Random random = new Random(7);
        StateTable table = new StateTable(0);
        Map<Object, Object> model = new HashMap<>();
        for (int op = 0; op < 200_000; op++) {
            Object key = random.nextBoolean() ? (Object) ("k" + random.nextInt(5000)) : new Colliding(random.nextInt(300));
            if (random.nextInt(3) == 0) {
                int s = table.find(key);
                if (s >= 0) {
                    table.removeAt(s);
                }
                model.remove(key);
            } else {
                long v = random.nextInt(1000);
                table.put(key, v, op);
                model.put(key, v);
            }
        }
        assertEquals(model.size(), table.size());
        assertEquals(model, contents(table));
        for (Object key : model.keySet()) {
            assertTrue(table.find(key) >= 0, "finds " + key);
        }
    }

    @Test
    void stringKeysLiveInTheArenaThroughPutsRemovesCopiesAndRehashes() {
        Random random = new Random(11);
        StateTable table = new StateTable(0);
        Map<Object, Object> model = new HashMap<>();
        for (int op = 0; op < 100_000; op++) {
            String key = "key-" + random.nextInt(4000) + (random.nextInt(10) == 0 ? "é" : "");
            if (random.nextInt(3) == 0) {
                int s = table.find(key);
                if (s >= 0) {
                    table.removeAt(s);
                }
                model.remove(key);
            } else {
                table.put(key, (long) op, op);
                model.put(key, (long) op);
            }
            if (op % 10_000 == 0) {
                table = table.copy();
            }
        }
        assertTrue(table.keysInArena());
        assertEquals(model, contents(table));
        assertEquals(model, contents(table.copy()));
        table.put(new Colliding(1), 1L, 1); // another kind of key: keys become objects, nothing is lost
        model.put(new Colliding(1), 1L);
        assertFalse(table.keysInArena());
        assertEquals(model, contents(table));
        table.put("中", 2L, 2); // outside Latin-1
        model.put("中", 2L);
        assertEquals(model, contents(table));
    }

    @Test
    void longValuesStayUnboxedUntilAnotherTypeArrives() {
        StateTable table = new StateTable(4);
        for (int i = 0; i < 100; i++) {
            table.put("k" + i, (long) i, 1);
        }
        assertTrue(table.isUnboxed());
        table.put("s", "a string", 2);
        assertFalse(table.isUnboxed());
        assertEquals(42L, table.valueAt(table.find("k42")));
        assertEquals("a string", table.valueAt(table.find("s")));
        assertEquals(101, table.size());
    }

    @Test
    void copiesAreIndependent() {
        StateTable table = new StateTable(4);
        table.put("a", 1L, 1);
        StateTable copy = table.copy();
        copy.put("a", 2L, 2);
        copy.put("b", 3L, 2);
        assertEquals(Map.of("a", 1L), contents(table));
        assertEquals(Map.of("a", 2L, "b", 3L), contents(copy));
    }

    /**
     * What growthBytes announces is what the next growth allocates on top of the table: the table after it grew
     * holds its new columns in place of the old, which adds more than a third of the announcement and at most all
     * of it.
     */
    @Test
    void growthBytesAnnouncesTheColumnsTheNextGrowthAllocates() {
        StateTable table = new StateTable(1000);
        long key = 0;
        int capacity = table.capacity();
        long before = 0;
        long announced = 0;
        while (table.capacity() == capacity) {
            before = table.estimatedBytes();
            announced = table.growthBytes();
            table.put(key++, 1L, 1);
        }
        assertEquals(2 * capacity, table.capacity());
        long added = table.estimatedBytes() - before;
        assertTrue(added > announced / 3 && added <= announced, "grew by " + added + " bytes, announced " + announced);
        assertTrue(table.growthBytes() > announced, "the next growth allocates more: " + table.growthBytes());
    }
}
