package io.sluice.dstream.scheduler;

/**
 * A receiver as the driver last heard of it, as Spark Streaming's {@code ReceiverInfo}.
 *
 * @param streamId the input stream's id among the context's receiver streams
 * @param name the stream's name (its {@code name(...)}, else its call site), with the server's address for
 *     socket streams
 * @param active whether the receiver runs now
 * @param location the host it runs or last ran on; empty before it first registered
 * @param executorId the executor it runs or last ran on; empty before it first registered
 * @param lastErrorMessage the last error it reported, or empty
 * @param lastError the last error's details (its message and cause, as the receiver reported it), or empty
 * @param lastErrorTime when the last error was reported (context clock, ms), or -1
 */
public record ReceiverInfo(int streamId, String name, boolean active, String location, String executorId,
        String lastErrorMessage, String lastError, long lastErrorTime) {
}
