package io.sluice.dstream.internal.source.receiver;

import io.sluice.dstream.internal.source.SourceSettings;
import java.io.Serializable;
import org.apache.spark.storage.StorageLevel;

/**
 * What the executor needs to run one receiver, besides the receiver itself.
 *
 * @param source the source's description for messages, e.g. "socketTextStream at App.java:12 (127.0.0.1:9999)"
 * @param trackerName the driver endpoint the supervisor reports to
 * @param storageLevel the level blocks are stored at (the receiver's, adjusted for local mode)
 */
record ReceiverSpec(int streamId, String source, String trackerName, StorageLevel storageLevel,
        SourceSettings settings) implements Serializable {
}
