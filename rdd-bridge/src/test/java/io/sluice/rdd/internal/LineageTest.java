package io.sluice.rdd.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.Logger;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Property;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Cutting and discarding lineage without a checkpoint directory: local checkpoints, let go of quietly. */
class LineageTest {
    private static JavaSparkContext sc;

    @BeforeAll
    static void start() {
        sc = new JavaSparkContext(SparkContexts.withDefaults(new SparkConf().setMaster("local[2]")
                .setAppName("lineage").set("spark.ui.enabled", "false")));
    }

    @AfterAll
    static void stop() {
        sc.stop();
    }

    @Test
    void aDiscardedLocalCheckpointIsUnpersistedWithoutSparksWarning() {
        JavaRDD<Integer> doubled = sc.parallelize(List.of(1, 2, 3, 4), 2).map(x -> x * 2);
        Lineage.cut(doubled);
        assertEquals(List.of(2, 4, 6, 8), doubled.collect());
        assertTrue(Lineage.isCut(doubled) && doubled.rdd().isLocallyCheckpointed(), "cut locally: no checkpoint dir");
        assertTrue(sc.getPersistentRDDs().containsKey(doubled.id()), "a local checkpoint lives in persisted blocks");

        List<String> warnings = new CopyOnWriteArrayList<>();
        Logger logger = (Logger) LogManager.getLogger(doubled.rdd().getClass()); // Spark logs as the RDD's class
        AbstractAppender capture = new AbstractAppender("capture-" + UUID.randomUUID(), null, null, true,
                Property.EMPTY_ARRAY) {
            @Override
            public void append(LogEvent event) {
                if (event.getLevel().isMoreSpecificThan(Level.WARN)) {
                    warnings.add(event.getMessage().getFormattedMessage());
                }
            }
        };
        capture.start();
        logger.addAppender(capture);
        try {
            Lineage.discard(doubled);
        } finally {
            logger.removeAppender(capture);
            capture.stop();
        }
        assertFalse(sc.getPersistentRDDs().containsKey(doubled.id()), "its blocks are released");
        assertEquals(List.of(), warnings, "discarding is expected, not a problem to report");
    }
}
