package io.sluice.dstream;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.equivalentTo;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noFields;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaMember;
import com.tngtech.archunit.core.domain.JavaMethodCall;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.domain.JavaType;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import io.sluice.dstream.source.internal.Sources;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The architecture the issue-15 split fixed, checked on the main classes of every module on this test's class
 * path (rdd-bridge, state, recovery, dstream; testkit and samples sit above dstream): the module layering, no
 * {@code .internal} type in a public signature, Spark's private APIs only in rdd-bridge's internals, no
 * JVM-wide mutable statics that carry context between threads; and since issue 38, operators built with their
 * context rather than the graph, and per-batch maps kept in one type that forgets old batches.
 */
class ArchitectureTest {
    private static final String INTERNAL = "..internal..";
    private static JavaClasses classes;

    @BeforeAll
    static void importMainClasses() {
        classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.sluice");
    }

    // ---- module layering -------------------------------------------------------------------------------

    @Test
    void rddBridgeDependsOnNoOtherSluicePackage() {
        noClasses().that().resideInAPackage("io.sluice.rdd..")
                .should().dependOnClassesThat(resideInAPackage("io.sluice..").and(not(resideInAPackage("io.sluice.rdd.."))))
                .because("rdd-bridge is the lowest module")
                .check(classes);
    }

    @Test
    void stateDoesNotDependOnTheEngine() {
        noClasses().that().resideInAPackage("io.sluice.state..")
                .should().dependOnClassesThat().resideInAPackage("io.sluice.dstream..")
                .because("state sits below the engine (on rdd-bridge and recovery's storage)")
                .check(classes);
    }

    @Test
    void recoveryDependsNeitherOnTheEngineNorOnState() {
        noClasses().that().resideInAPackage("io.sluice.recovery..")
                .should().dependOnClassesThat().resideInAnyPackage("io.sluice.dstream..", "io.sluice.state..")
                .because("recovery stores and lists bytes and progress; state owns what the bytes mean")
                .check(classes);
    }

    /**
     * The dependency rule cannot see a state model copied into recovery (it would depend on nothing of state's):
     * recovery names no type after state, so snapshots, deltas and chains stay in
     * {@code io.sluice.state.internal.checkpoint} and recovery keeps opaque per-operator records.
     */
    @Test
    void recoveryDeclaresNoStateModel() {
        noClasses().that().resideInAPackage("io.sluice.recovery..")
                .should().haveSimpleNameContaining("State")
                .because("the state's checkpoint model (snapshot and delta chains per partition) belongs to "
                        + "io.sluice.state.internal.checkpoint; recovery keeps opaque operator records")
                .check(classes);
    }

    @Test
    void sourcesDependOnTheSpiNotOnEngineInternals() {
        noClasses().that().resideInAPackage("io.sluice.dstream.source..")
                .should().dependOnClassesThat().resideInAPackage("io.sluice.dstream.internal..")
                .because("every source, built-in or the user's, plugs in through the public source SPI")
                .check(classes);
    }

    /**
     * The engine talks to sources only through the SPI ({@code InputSource}, its {@code Receiving}): no class of
     * dstream outside the source packages names a source's internals, except {@code Sources}, the one factory the
     * context's stream methods ({@code StreamingContext}, {@code Replay}) make the built-in sources with.
     */
    @Test
    void theEngineReachesSourcesOnlyThroughTheSpi() {
        noClasses().that().resideInAPackage("io.sluice.dstream..")
                .and().resideOutsideOfPackage("io.sluice.dstream.source..")
                .should().dependOnClassesThat(resideInAPackage("io.sluice.dstream.source.internal..")
                        .and(not(equivalentTo(Sources.class))))
                .because("the source SPI is the only seam between the engine and the sources; "
                        + "source.internal.Sources is the one factory of the built-in sources")
                .check(classes);
    }

    // ---- operators and per-batch bookkeeping -------------------------------------------------------------

    private static final String OPERATOR = "io.sluice.dstream.internal.Operator";

    @Test
    void operatorsDoNotCallBackIntoTheGraph() {
        noClasses().that(assignableTo(OPERATOR))
                .should().dependOnClassesThat().haveFullyQualifiedName("io.sluice.dstream.internal.StreamGraph")
                .because("an operator is built with an OperatorContext; the graph that builds it is not finished yet")
                .check(classes);
    }

    @Test
    void theOperatorBaseClassTellsNoOperatorKindApart() {
        classes().that().haveFullyQualifiedName(OPERATOR)
                .should(new ArchCondition<>("check no operator kind with instanceof") {
                    @Override
                    public void check(JavaClass c, ConditionEvents events) {
                        for (JavaCodeUnit u : c.getCodeUnits()) {
                            u.getInstanceofChecks().stream().filter(i -> i.getRawType().isAssignableTo(OPERATOR))
                                    .forEach(i -> events.add(SimpleConditionEvent.violated(i, u.getFullName()
                                            + " checks instanceof " + i.getRawType().getName())));
                        }
                    }
                })
                .because("what differs between operators is in their subclasses (their compute and hooks)")
                .check(classes);
    }

    @Test
    void perBatchMapsAreForgottenOnlyByBatchTimeMap() {
        noClasses().that().doNotHaveFullyQualifiedName("io.sluice.rdd.BatchTimeMap")
                .should().callMethodWhere(DescribedPredicate.describe("headMap of a sorted map",
                        (JavaMethodCall call) -> call.getName().equals("headMap")
                                && call.getTargetOwner().isAssignableTo(SortedMap.class)))
                .because("what is kept per batch time is kept in a BatchTimeMap, which forgets old batches in one "
                        + "place")
                .check(classes);
    }

    // ---- public API ------------------------------------------------------------------------------------

    @Test
    void publicSignaturesNameNoInternalType() {
        classes().that(arePublicApi())
                .should(nameNoInternalTypeInTheirPublicSignatures())
                .check(classes);
    }

    // ---- Spark's private APIs --------------------------------------------------------------------------

    @Test
    void sparkPrivateApisAreUsedOnlyInRddBridgeInternals() {
        noClasses().that().resideOutsideOfPackage("io.sluice.rdd.internal..")
                .should().dependOnClassesThat(sparkPrivateApi())
                .because("SparkEnv, the block manager and RPC change between Spark versions: one module adapts them")
                .check(classes);
    }

    // ---- no JVM-wide mutable statics -------------------------------------------------------------------

    @Test
    void noStaticThreadLocals() {
        noFields().that().areDeclaredInClassesThat().resideInAPackage("io.sluice..").and().areStatic()
                .should().haveRawType(assignableTo(ThreadLocal.class.getName()))
                .because("context travels in arguments, not in thread-bound statics")
                .check(classes);
    }

    @Test
    void noStaticMutableMaps() {
        noFields().that().areDeclaredInClassesThat().resideInAPackage("io.sluice..").and().areStatic()
                .should().haveRawType(assignableTo(Map.class.getName())
                        .and(not(assignableTo("com.google.common.collect.ImmutableMap"))))
                .because("a JVM-wide map links contexts, threads and tasks that should not know each other")
                .check(classes);
    }

    // ---- predicates and conditions ---------------------------------------------------------------------

    private static DescribedPredicate<JavaClass> assignableTo(String type) {
        return DescribedPredicate.describe("assignable to " + type, c -> c.isAssignableTo(type));
    }

    private static DescribedPredicate<JavaClass> sparkPrivateApi() {
        return DescribedPredicate.describe("Spark private APIs (SparkEnv, block manager, block ids, RPC, web UI, "
                + "metrics system)", c -> {
            String name = c.getName();
            return name.equals("org.apache.spark.SparkEnv") || name.startsWith("org.apache.spark.SparkEnv$")
                    || c.getPackageName().equals("org.apache.spark.ui")
                    || c.getPackageName().startsWith("org.apache.spark.metrics")
                    || name.matches("org\\.apache\\.spark\\.storage\\.(BlockManager[^.]*|BlockResult|[^.$]*BlockId)(\\$.*)?")
                    || c.getPackageName().startsWith("org.apache.spark.rpc");
        });
    }

    /** Public classes of non-internal io.sluice packages, nested ones only when every enclosing class is public too. */
    private static DescribedPredicate<JavaClass> arePublicApi() {
        return DescribedPredicate.describe("are public API classes", c -> {
            if (!c.getPackageName().startsWith("io.sluice") || resideInAPackage(INTERNAL).test(c)) {
                return false;
            }
            for (Optional<JavaClass> k = Optional.of(c); k.isPresent(); k = k.get().getEnclosingClass()) {
                if (!k.get().getModifiers().contains(JavaModifier.PUBLIC)) {
                    return false;
                }
            }
            return true;
        });
    }

    private static ArchCondition<JavaClass> nameNoInternalTypeInTheirPublicSignatures() {
        return new ArchCondition<>("name no type of an " + INTERNAL + " package in a public or protected signature") {
            @Override
            public void check(JavaClass c, ConditionEvents events) {
                List<String> leaks = new ArrayList<>();
                c.getSuperclass().ifPresent(t -> collect("superclass", t, leaks));
                c.getInterfaces().forEach(t -> collect("interface", t, leaks));
                for (JavaField f : c.getFields()) {
                    if (visible(f)) {
                        collect("field " + f.getName(), f.getType(), leaks);
                    }
                }
                for (JavaCodeUnit u : c.getCodeUnits()) {
                    if (!visible(u) || u.getModifiers().contains(JavaModifier.SYNTHETIC)
                            || u.getModifiers().contains(JavaModifier.BRIDGE)) {
                        continue;
                    }
                    String what = u.isConstructor() ? "constructor" : "method " + u.getName();
                    collect(what + " return type", u.getReturnType(), leaks);
                    u.getParameterTypes().forEach(p -> collect(what + " parameter", p, leaks));
                    u.getThrowsClause().getTypes().forEach(t -> collect(what + " throws", t, leaks));
                }
                for (String leak : leaks) {
                    events.add(SimpleConditionEvent.violated(c, c.getName() + ": " + leak));
                }
            }
        };
    }

    private static boolean visible(JavaMember m) {
        Set<JavaModifier> modifiers = m.getModifiers();
        return modifiers.contains(JavaModifier.PUBLIC) || modifiers.contains(JavaModifier.PROTECTED);
    }

    private static void collect(String where, JavaType type, List<String> leaks) {
        for (JavaClass raw : type.getAllInvolvedRawTypes()) {
            if (raw.getPackageName().startsWith("io.sluice") && resideInAPackage(INTERNAL).test(raw)) {
                leaks.add(where + " names " + raw.getName());
            }
        }
    }
}
