package io.sluice.state.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.NoSuchElementException;
import org.apache.spark.api.java.Optional;
import org.junit.jupiter.api.Test;

class StateSlotTest {
    @Test
    void absentStateHasNoValue() {
        StateSlot<Integer> s = new StateSlot<>();
        s.wrap(false, null);
        assertFalse(s.exists());
        assertEquals(Optional.empty(), s.getOption());
        assertThrows(NoSuchElementException.class, s::get);
    }

    @Test
    void updateThenRemove() {
        StateSlot<Integer> s = new StateSlot<>();
        s.wrap(true, 1);
        s.update(2);
        assertTrue(s.isUpdated());
        assertEquals(2, s.get());
        s.remove();
        assertTrue(s.isRemoved());
        assertFalse(s.exists());
        IllegalStateException twice = assertThrows(IllegalStateException.class, s::remove);
        assertTrue(twice.getMessage().contains("twice"));
        assertThrows(IllegalStateException.class, () -> s.update(3));
    }

    @Test
    void timingOutStateCanBeReadButNotChanged() {
        StateSlot<Integer> s = new StateSlot<>();
        s.wrapTimingOut(5);
        assertTrue(s.isTimingOut());
        assertEquals(5, s.get());
        IllegalStateException update = assertThrows(IllegalStateException.class, () -> s.update(6));
        assertTrue(update.getMessage().contains("timing out"), update.getMessage());
        IllegalStateException remove = assertThrows(IllegalStateException.class, s::remove);
        assertTrue(remove.getMessage().contains("timing out"), remove.getMessage());
        s.wrap(true, 1);
        assertFalse(s.isTimingOut());
    }
}
