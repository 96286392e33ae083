package io.sluice.state.internal;

/**
 * The keys removed (explicitly or by timeout) per batch, newest batch first, as an immutable chain shared
 * between versions. It lets a version describe the removals since an earlier batch, which a delta encoding
 * needs and a hash table forgets. The chain is cut once it would hold more removals than half the live keys
 * (then a delta reaching back before the cut is unavailable and a snapshot is written instead), so its
 * memory stays proportional to the live state.
 */
final class RemovalLog {
    final long time;
    final Object[] keys;
    final RemovalLog older;
    final long total;

    private RemovalLog(long time, Object[] keys, RemovalLog older) {
        this.time = time;
        this.keys = keys;
        this.older = older;
        this.total = keys.length + (older == null ? 0 : older.total);
    }

    static RemovalLog prepend(RemovalLog log, long time, Object[] keys) {
        return new RemovalLog(time, keys, log);
    }
}
