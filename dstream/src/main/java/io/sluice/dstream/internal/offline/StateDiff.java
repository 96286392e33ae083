package io.sluice.dstream.internal.offline;

import io.sluice.dstream.StateChange;
import io.sluice.dstream.StateEntry;
import io.sluice.rdd.Time;
import io.sluice.state.internal.StateVersion;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import org.apache.spark.api.java.Optional;
import scala.Tuple2;

/**
 * The changes between two versions of a state: keys added, removed, and updated (a state not {@code equals}
 * the earlier one; a key written again with an equal state is not a change).
 */
final class StateDiff {
    private StateDiff() {
    }

    /** The changes between partition i of the earlier state and partition i of the later one (same layout). */
    static <K, S> Iterator<Tuple2<K, StateChange<S>>> of(Iterator<StateVersion<K, S>> before,
            Iterator<StateVersion<K, S>> after) throws Exception {
        StateVersion<K, S> a = before.next();
        StateVersion<K, S> b = after.next();
        List<Tuple2<K, StateChange<S>>> changes = new ArrayList<>();
        b.forEach((key, state, lastUpdate) -> {
            StateEntry<S> now = new StateEntry<>(state, new Time(lastUpdate));
            if (!a.contains(key)) {
                changes.add(new Tuple2<>(key, StateChange.added(now)));
            } else if (!Objects.equals(a.get(key), state)) {
                changes.add(new Tuple2<>(key, StateChange.updated(new StateEntry<>(a.get(key),
                        new Time(a.lastUpdate(key))), now)));
            }
        });
        a.forEach((key, state, lastUpdate) -> {
            if (!b.contains(key)) {
                changes.add(new Tuple2<>(key, StateChange.removed(new StateEntry<>(state, new Time(lastUpdate)))));
            }
        });
        return changes.iterator();
    }

    /** The change of one key, from its entries in both states matched by a join. */
    static <K, S> Iterator<Tuple2<K, StateChange<S>>> ofJoined(
            Tuple2<K, Tuple2<Optional<StateEntry<S>>, Optional<StateEntry<S>>>> joined) {
        StateEntry<S> a = joined._2()._1().orNull();
        StateEntry<S> b = joined._2()._2().orNull();
        StateChange<S> change = a == null ? StateChange.added(b)
                : b == null ? StateChange.removed(a)
                : Objects.equals(a.state(), b.state()) ? null : StateChange.updated(a, b);
        return change == null ? List.<Tuple2<K, StateChange<S>>>of().iterator()
                : List.of(new Tuple2<>(joined._1(), change)).iterator();
    }
}
