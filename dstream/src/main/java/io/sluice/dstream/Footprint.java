package io.sluice.dstream;

/**
 * What a running context holds on to, for watching a long-running job (see {@link StreamingContext#footprint()}):
 * each count stays flat over any number of batches, however long the job runs, unless something leaks.
 *
 * @param rememberedRdds the RDDs the context's streams keep, summed over every stream: the batches a window,
 *                       {@code remember} or a later batch may still need (0 before start)
 * @param persistedRdds  the RDDs the SparkContext has persisted ({@code getPersistentRDDs}), Sluice's (cached
 *                       streams, lineage cuts, and on a cluster state and windows) and the application's own; in
 *                       local mode Sluice caches its internal RDDs without Spark's persistence, counted in
 *                       {@code cachedBlocks} only
 * @param cachedBlocks   the data blocks every block manager of the SparkContext holds: cached RDD partitions
 *                       and received blocks not yet processed or released
 */
public record Footprint(int rememberedRdds, int persistedRdds, int cachedBlocks) {
}
