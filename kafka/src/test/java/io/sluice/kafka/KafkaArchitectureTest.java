package io.sluice.kafka;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noFields;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaMethodCall;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.Map;
import java.util.SortedMap;
import org.junit.jupiter.api.Test;

/**
 * The connector is written against the engine's public API only (as a user's source would be): no
 * {@code .internal} package of another module, none of Spark's private APIs, no JVM-wide mutable maps; and it
 * waits and keeps per-batch bookkeeping with the engine's public helpers.
 */
class KafkaArchitectureTest {
    private static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.sluice.kafka");

    @Test
    void usesNoInternalPackageOfTheEngine() {
        noClasses().that().resideInAPackage("io.sluice.kafka..")
                .should().dependOnClassesThat(resideInAPackage("io.sluice..internal.."))
                .because("a connector uses the public source SPI, as a user's source does")
                .check(CLASSES);
    }

    @Test
    void usesNoSparkPrivateApi() {
        noClasses().that().resideInAPackage("io.sluice.kafka..")
                .should().dependOnClassesThat(DescribedPredicate.describe("Spark private APIs", (JavaClass c) ->
                        c.getName().startsWith("org.apache.spark.SparkEnv")
                                || c.getPackageName().startsWith("org.apache.spark.storage")
                                || c.getPackageName().startsWith("org.apache.spark.rpc")))
                .check(CLASSES);
    }

    @Test
    void waitsWithTheEnginesDeadlineAndKeepsBatchesInBatchTimeMaps() {
        noClasses().that().resideInAPackage("io.sluice.kafka..")
                .should().callMethod(System.class, "nanoTime")
                .orShould().callMethod(System.class, "currentTimeMillis")
                .orShould().callMethodWhere(DescribedPredicate.describe("headMap of a sorted map",
                        (JavaMethodCall call) -> call.getName().equals("headMap")
                                && call.getTargetOwner().isAssignableTo(SortedMap.class)))
                .because("bounded waits use io.sluice.rdd.Deadline and per-batch bookkeeping "
                        + "io.sluice.rdd.BatchTimeMap, as in the engine")
                .check(CLASSES);
    }

    @Test
    void keepsNoStaticMutableMaps() {
        noFields().that().areDeclaredInClassesThat().resideInAPackage("io.sluice.kafka..")
                .and().haveModifier(JavaModifier.STATIC)
                .should().haveRawType(DescribedPredicate.describe("a Map",
                        (JavaClass c) -> c.isAssignableTo(Map.class)))
                .because("executors' consumers are pooled in a broadcast value, not in a static")
                .check(CLASSES);
    }
}
