package io.sluice.dstream.source.internal;

import io.sluice.rdd.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one warning a text source logs per batch that held bad input: how many records it repaired and skipped,
 * naming the source, the batch and the first offending position. One line per batch, however many bad records:
 * a stream of stray bytes cannot flood the log.
 */
public final class BadInputWarning {
    private static final Logger LOG = LoggerFactory.getLogger(BadInputWarning.class);

    private BadInputWarning() {
    }

    /** Logs the batch's warning if it repaired or skipped anything; {@code first} may be null (not known). */
    public static void log(String source, Time batch, long repaired, long skipped, String first) {
        if (repaired == 0 && skipped == 0) {
            return;
        }
        LOG.warn("{}: batch {} had bad input: {} records repaired, {} skipped (see {}); the first: {}", source, batch,
                repaired, skipped, SourceSettings.BAD_RECORDS, first == null ? "(position not known)" : first);
    }
}
