package io.sluice.rdd.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.rdd.RDDOperationScope;
import org.junit.jupiter.api.Test;

/** The warm-up completes on its own thread, and RDD operations afterwards carry their scopes as before. */
class OperationScopeWarmUpTest {

    @Test
    void theWarmUpCompletesAndOperationsStillCarryTheirScopes() throws Exception {
        OperationScopeWarmUp.start().get(60, TimeUnit.SECONDS); // throws if the warm-up failed
        JavaSparkContext sc = SparkContexts.getOrCreate(new SparkConf().setMaster("local[2]")
                .setAppName("operation-scope-warm-up").set("spark.ui.enabled", "false"));
        try {
            JavaRDD<Integer> doubled = sc.parallelize(List.of(1, 2, 3), 2).map(i -> i * 2);
            assertEquals(List.of(2, 4, 6), doubled.collect());
            RDDOperationScope scope = doubled.rdd().scope().get();
            assertEquals("map", scope.name(), "the scope the UI's DAG shows for the operation");
            RDDOperationScope read = RDDOperationScope.fromJson(scope.toJson());
            assertEquals(scope, read, "scopes still round-trip through the JSON Spark keeps them in");
            assertEquals("parallelize", doubled.rdd().firstParent(scala.reflect.ClassTag$.MODULE$.Any()).scope().get()
                    .name(), "and the one of its parent");
        } finally {
            sc.stop();
        }
    }
}
