package io.sluice.dstream.source.internal.receiver;

import java.util.function.BiConsumer;
import java.util.function.Consumer;
import org.apache.spark.SparkEnv;
import org.apache.spark.rpc.RpcCallContext;
import org.apache.spark.rpc.RpcEndpoint;
import org.apache.spark.rpc.RpcEndpointRef;
import org.apache.spark.rpc.RpcEnv;
import scala.PartialFunction;
import scala.reflect.ClassTag;
import scala.reflect.ClassTag$;
import scala.runtime.AbstractPartialFunction;
import scala.runtime.BoxedUnit;

/**
 * A message endpoint on Spark's RPC layer (the one Spark Streaming's receiver tracker uses), adapted to Java:
 * one-way messages go to {@code onMessage}, asks to {@code onAsk}, which replies through the context (possibly
 * later, from another thread). Messages are small Java-serializable records ({@link Messages}).
 */
final class Endpoint implements RpcEndpoint {
    private final RpcEnv rpcEnv;
    private final Consumer<Object> onMessage;
    private final BiConsumer<Object, RpcCallContext> onAsk;

    private Endpoint(RpcEnv rpcEnv, Consumer<Object> onMessage, BiConsumer<Object, RpcCallContext> onAsk) {
        this.rpcEnv = rpcEnv;
        this.onMessage = onMessage;
        this.onAsk = onAsk;
    }

    /** Registers an endpoint under {@code name} in this JVM's Spark RPC environment. */
    static RpcEndpointRef setUp(String name, Consumer<Object> onMessage, BiConsumer<Object, RpcCallContext> onAsk) {
        RpcEnv env = SparkEnv.get().rpcEnv();
        return env.setupEndpoint(name, new Endpoint(env, onMessage, onAsk));
    }

    static void tearDown(RpcEndpointRef ref) {
        SparkEnv env = SparkEnv.get();
        if (env != null) {
            env.rpcEnv().stop(ref);
        }
    }

    static <T> T ask(RpcEndpointRef ref, Object message, Class<T> replyType) {
        ClassTag<T> tag = ClassTag$.MODULE$.apply(replyType);
        return ref.askSync(message, tag);
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
        return new AbstractPartialFunction<>() {
            @Override
            public boolean isDefinedAt(Object message) {
                return true;
            }

            @Override
            public <A1, B1> B1 applyOrElse(A1 message, scala.Function1<A1, B1> fallback) {
                try {
                    onAsk.accept(message, context);
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
