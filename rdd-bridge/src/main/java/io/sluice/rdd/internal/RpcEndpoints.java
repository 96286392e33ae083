package io.sluice.rdd.internal;

import java.io.Serializable;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import org.apache.spark.SparkEnv;
import org.apache.spark.rpc.RpcCallContext;
import org.apache.spark.rpc.RpcEndpoint;
import org.apache.spark.rpc.RpcEndpointRef;
import org.apache.spark.rpc.RpcEnv;
import org.apache.spark.util.RpcUtils;
import scala.PartialFunction;
import scala.reflect.ClassTag$;
import scala.runtime.AbstractPartialFunction;
import scala.runtime.BoxedUnit;

/**
 * Message endpoints on Spark's RPC layer (the one Spark Streaming's receiver tracker uses), adapted to Java so
 * that no other module names Spark's RPC types: register an endpoint in this JVM, find a driver endpoint by name
 * from an executor, send and ask. Messages are Java-serializable values; a {@link Ref} may travel in them.
 */
public final class RpcEndpoints {
    private RpcEndpoints() {
    }

    /** The answer to one ask. */
    public interface Reply {
        void reply(Object answer);

        void fail(Throwable error);
    }

    /** A reference to an endpoint, in this JVM or another; serializable, so it may be sent in a message. */
    public static final class Ref implements Serializable {
        private static final long serialVersionUID = 1L;
        private final RpcEndpointRef ref;

        private Ref(RpcEndpointRef ref) {
            this.ref = ref;
        }

        public void send(Object message) {
            ref.send(message);
        }

        /** Asks and waits for the answer (Spark's RPC ask timeout applies); a failed answer is thrown. */
        public <T> T ask(Object message, Class<T> answerType) {
            return ref.askSync(message, ClassTag$.MODULE$.apply(answerType));
        }

        @Override
        public String toString() {
            return ref.toString();
        }
    }

    /**
     * Registers an endpoint under {@code name} in this JVM's Spark RPC environment: one-way messages ({@link
     * Ref#send}) go to {@code onMessage}, asks ({@link Ref#ask}) to {@code onAsk}, which answers through the
     * {@link Reply}, possibly later and from another thread. Both run on Spark's RPC threads.
     */
    public static Ref register(String name, Consumer<Object> onMessage, BiConsumer<Object, Reply> onAsk) {
        RpcEnv env = SparkEnv.get().rpcEnv();
        return new Ref(env.setupEndpoint(name, new Endpoint(env, onMessage, onAsk)));
    }

    /** The endpoint registered under {@code name} on the driver (from an executor or the driver itself). */
    public static Ref driver(String name) {
        SparkEnv env = SparkEnv.get();
        return new Ref(RpcUtils.makeDriverRef(name, env.conf(), env.rpcEnv()));
    }

    /** Stops an endpoint this JVM registered; nothing when Spark has stopped already. */
    public static void unregister(Ref ref) {
        SparkEnv env = SparkEnv.get();
        if (env != null && ref != null) {
            env.rpcEnv().stop(ref.ref);
        }
    }

    /** The id of the executor this JVM runs ("driver" on the driver, as Spark names it). */
    public static String executorId() {
        return SparkEnv.get().executorId();
    }

    /** The host this JVM's block manager (and so its tasks) runs on. */
    public static String host() {
        return SparkEnv.get().blockManager().blockManagerId().host();
    }

    private static final class Endpoint implements RpcEndpoint {
        private final RpcEnv rpcEnv;
        private final Consumer<Object> onMessage;
        private final BiConsumer<Object, Reply> onAsk;

        Endpoint(RpcEnv rpcEnv, Consumer<Object> onMessage, BiConsumer<Object, Reply> onAsk) {
            this.rpcEnv = rpcEnv;
            this.onMessage = onMessage;
            this.onAsk = onAsk;
        }

        @Override
        public RpcEnv rpcEnv() {
            return rpcEnv;
        }

        @Override
        public PartialFunction<Object, BoxedUnit> receive() {
            return new AbstractPartialFunction<>() {
                @Override
                public boolean isDefinedAt(Object message) {
                    return true;
                }

                @Override
                public <A1, B1> B1 applyOrElse(A1 message, scala.Function1<A1, B1> fallback) {
                    onMessage.accept(message);
                    @SuppressWarnings("unchecked")
                    B1 unit = (B1) BoxedUnit.UNIT;
                    return unit;
                }
            };
        }

        @Override
        public PartialFunction<Object, BoxedUnit> receiveAndReply(RpcCallContext context) {
            Reply reply = new Reply() {
                @Override
                public void reply(Object answer) {
                    context.reply(answer);
                }

                @Override
                public void fail(Throwable error) {
                    context.sendFailure(error);
                }
            };
            return new AbstractPartialFunction<>() {
                @Override
                public boolean isDefinedAt(Object message) {
                    return true;
                }

                @Override
                public <A1, B1> B1 applyOrElse(A1 message, scala.Function1<A1, B1> fallback) {
                    try {
                        onAsk.accept(message, reply);
                    } catch (RuntimeException e) {
                        context.sendFailure(e);
                    }
                    @SuppressWarnings("unchecked")
                    B1 unit = (B1) BoxedUnit.UNIT;
                    return unit;
                }
            };
        }
    }
}
