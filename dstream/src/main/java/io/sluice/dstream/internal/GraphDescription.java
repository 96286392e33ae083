package io.sluice.dstream.internal;

import io.sluice.rdd.BatchGrid;
import io.sluice.rdd.internal.Serialization;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.spark.storage.StorageLevel;

/**
 * What the user API builds before start: the streams ({@link Node}s, in creation order), their settings, the
 * output operations and the remember duration. {@link #freeze()} at start ends changes; the context then
 * validates it once and builds the runtime {@link StreamGraph} from it.
 */
public final class GraphDescription {
    /** An output operation: every batch of {@code parent} runs {@code action}. */
    public record Output<T>(Node<T> parent, String kind, String callSite, OutputOperation.Action<T> action) {
    }

    private final Duration batchInterval;
    private final List<Node<?>> nodes = new ArrayList<>();
    private final List<Node.Settings> settings = new ArrayList<>(); // by node id
    private final List<Output<?>> outputs = new ArrayList<>();
    private final Map<String, Node<?>> names = new HashMap<>();
    private Duration userRemember;
    private boolean frozen;

    public GraphDescription(Duration batchInterval) {
        this.batchInterval = Durations.requirePositiveMillis(batchInterval, "the batch interval");
    }

    /** Adds a stream; {@code callSite} says where the user created it ({@link CallSite#of}). */
    public synchronized <T> Node<T> add(String kind, String callSite, List<Node<?>> parents, Duration slide,
            Duration window, List<?> userFunctions, Node.Settings initial, Node.Factory<T> factory) {
        ensureNotStarted("adding " + callSite);
        for (Node<?> parent : parents) {
            if (parent.id() >= nodes.size() || nodes.get(parent.id()) != parent) {
                throw new IllegalArgumentException(callSite + ": cannot combine streams of different contexts");
            }
        }
        Node<T> node = new Node<>(nodes.size(), kind, callSite, parents, slide, window, List.copyOf(userFunctions),
                factory);
        nodes.add(node);
        settings.add(initial);
        return node;
    }

    public synchronized void addOutput(Node<?> parent, String kind, OutputOperation.Action<?> action) {
        String callSite = CallSite.of(kind);
        ensureNotStarted("adding " + callSite);
        outputs.add(output(parent, kind, callSite, action));
    }

    @SuppressWarnings("unchecked")
    private static <T> Output<T> output(Node<T> parent, String kind, String callSite, OutputOperation.Action<?> a) {
        return new Output<>(parent, kind, callSite, (OutputOperation.Action<T>) a);
    }

    public synchronized void name(Node<?> node, String name) {
        ensureNotStarted("name()");
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException(node.callSite() + ": an operator name must not be blank");
        }
        Node<?> other = names.putIfAbsent(name, node);
        if (other != null && other != node) {
            throw new IllegalArgumentException(node.callSite() + ": the name '" + name
                    + "' is already used by " + other.callSite() + "; operator names must be unique");
        }
        settings.set(node.id(), settings.get(node.id()).withName(name));
    }

    public synchronized void persist(Node<?> node, StorageLevel level) {
        ensureNotStarted("persist()");
        settings.set(node.id(), settings.get(node.id()).withStorageLevel(level));
    }

    public synchronized void checkpoint(Node<?> node, Duration interval) {
        ensureNotStarted("checkpoint()");
        if (interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException(node.callSite() + ": checkpoint interval must be positive, was "
                    + interval);
        }
        settings.set(node.id(), settings.get(node.id()).withCheckpointInterval(interval));
    }

    public synchronized void remember(Duration duration) {
        ensureNotStarted("remember()");
        userRemember = Durations.requirePositiveMillis(duration, "remember duration");
    }

    public synchronized Node.Settings settings(Node<?> node) {
        return settings.get(node.id());
    }

    public synchronized void ensureNotStarted(String what) {
        if (frozen) {
            throw new IllegalStateException(what + " is not allowed after the StreamingContext has started: "
                    + "create every stream and output operation before start()");
        }
    }

    /** Ends changes: from now on the description is read only (the context starts on it). */
    public synchronized void freeze() {
        frozen = true;
    }

    public Duration batchInterval() {
        return batchInterval;
    }

    public synchronized List<Node<?>> nodes() {
        return List.copyOf(nodes);
    }

    public synchronized List<Output<?>> outputs() {
        return List.copyOf(outputs);
    }

    /** The node's user name if it has one, else its call site. */
    public synchronized String describe(Node<?> node) {
        String n = settings.get(node.id()).name();
        return n != null ? "'" + n + "' (" + node.callSite() + ")" : node.callSite();
    }

    /** The id checkpoints attach the node's progress and state to: its name, else its position and kind. */
    public synchronized String stableId(Node<?> node) {
        String n = settings.get(node.id()).name();
        return n != null ? n : "#" + node.id() + "-" + node.kind();
    }

    public synchronized Optional<Node<?>> byStableId(String stableId) {
        return nodes.stream().filter(n -> stableId(n).equals(stableId)).findFirst();
    }

    /** The nodes some output operation depends on. */
    public synchronized Set<Node<?>> reachedByOutputs() {
        Set<Node<?>> reached = new HashSet<>();
        List<Node<?>> pending = new ArrayList<>();
        outputs.forEach(out -> pending.add(out.parent()));
        while (!pending.isEmpty()) {
            Node<?> node = pending.remove(pending.size() - 1);
            if (reached.add(node)) {
                pending.addAll(node.parents());
            }
        }
        return reached;
    }

    /**
     * How long each node keeps its RDDs, by node id: at least its slide, twice its checkpoint interval, what
     * the user asked with remember() for streams with outputs, and what its dependents reached by an output
     * need (a window's length longer for a window's parent).
     */
    public synchronized List<Duration> rememberDurations() {
        Set<Node<?>> reached = reachedByOutputs();
        Duration[] remember = new Duration[nodes.size()];
        for (Node<?> node : nodes) {
            Duration r = node.slide();
            Duration checkpoint = settings.get(node.id()).checkpointInterval();
            if (checkpoint != null && r.compareTo(checkpoint.multipliedBy(2)) < 0) {
                r = checkpoint.multipliedBy(2);
            }
            remember[node.id()] = r;
        }
        for (Output<?> out : outputs) {
            Duration slide = out.parent().slide();
            Duration asked = userRemember == null ? slide : Durations.max(userRemember, slide);
            remember[out.parent().id()] = Durations.max(remember[out.parent().id()], asked);
        }
        for (int id = nodes.size() - 1; id >= 0; id--) { // dependents come after their parents
            Node<?> node = nodes.get(id);
            if (!reached.contains(node)) {
                continue;
            }
            Duration forParents = node.window() == null ? remember[id] : remember[id].plus(node.window());
            for (Node<?> parent : node.parents()) {
                remember[parent.id()] = Durations.max(remember[parent.id()], forParents);
            }
        }
        return List.of(remember);
    }

    /** Checks the whole description; returns every problem found, each saying what to change. */
    public synchronized List<String> validate() {
        List<String> problems = new ArrayList<>();
        if (outputs.isEmpty()) {
            problems.add("no output operation is registered, so nothing would ever run: add one "
                    + "(print(), foreachRDD(...), saveAsTextFiles(...)) before start()");
        }
        for (Node<?> node : nodes) {
            if (node.window() != null) {
                problems.addAll(windowProblems(node));
                problems.addAll(ownProblems(node));
            } else {
                problems.addAll(ownProblems(node));
                problems.addAll(slideProblems(node));
            }
            for (Object fn : node.userFunctions()) {
                Serialization.problemWith(fn).ifPresent(p -> problems.add(describe(node)
                        + ": its function " + fn.getClass().getName() + " cannot be sent to executors: " + p
                        + " (make captured objects Serializable, or create them inside the function)"));
            }
        }
        // Output functions (foreachRDD) and transform functions run on the driver and are never serialized: no
        // checkpoint holds them, so unlike Spark Streaming they may capture driver-only objects such as connection
        // pools. Their nodes list no user functions.
        return problems;
    }

    private List<String> ownProblems(Node<?> node) {
        List<String> problems = new ArrayList<>();
        Duration slide = node.slide();
        if (!BatchGrid.isMultiple(slide, batchInterval)) {
            problems.add(describe(node) + ": its slide " + Durations.show(slide)
                    + " is not a multiple of the batch interval " + Durations.show(batchInterval)
                    + "; make every window length and slide a multiple of the batch interval");
        }
        Duration checkpoint = settings.get(node.id()).checkpointInterval();
        if (checkpoint != null && !BatchGrid.isMultiple(checkpoint, slide)) {
            problems.add(describe(node) + ": its checkpoint interval " + Durations.show(checkpoint)
                    + " is not a multiple of its slide " + Durations.show(slide)
                    + "; pass checkpoint(...) a multiple of " + Durations.show(slide));
        }
        return problems;
    }

    /** Streams combined batch by batch (join, union, transformWith) must have the same slide. */
    private List<String> slideProblems(Node<?> node) {
        for (Node<?> parent : node.parents()) {
            if (!parent.slide().equals(node.slide())) {
                return List.of(describe(node) + " combines streams with different slides ("
                        + Durations.show(node.slide()) + " and " + Durations.show(parent.slide())
                        + "): window them to the same slide first");
            }
        }
        return List.of();
    }

    private List<String> windowProblems(Node<?> node) {
        List<String> problems = new ArrayList<>();
        Duration parentSlide = node.parents().get(0).slide();
        if (!BatchGrid.isMultiple(node.window(), parentSlide)) {
            problems.add(describe(node) + ": its window duration " + Durations.show(node.window())
                    + " is not a multiple of its parent stream's slide " + Durations.show(parentSlide)
                    + ": make the window a whole number of the parent's batches");
        }
        if (!BatchGrid.isMultiple(node.slide(), parentSlide)) {
            problems.add(describe(node) + ": its slide duration " + Durations.show(node.slide())
                    + " is not a multiple of its parent stream's slide " + Durations.show(parentSlide)
                    + ": make the slide a whole number of the parent's batches");
        }
        return problems;
    }
}
