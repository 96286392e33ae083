package io.sluice.dstream.source.internal.receiver;

import io.sluice.dstream.source.internal.SourceSettings;
import java.io.Serializable;
import org.apache.spark.storage.StorageLevel;
import org.apache.spark.util.SerializableConfiguration;

/**
 * What the executor needs to run one receiver, besides the receiver itself.
 *
 * @param source the source's description for messages, e.g. "socketTextStream at App.java:12 (127.0.0.1:9999)"
 * @param trackerName the driver endpoint the supervisor reports to
 * @param storageLevel the level blocks are stored at (the receiver's, adjusted for local mode)
 * @param format what the receiver's stored elements are
 * @param walDirectory where this stream's receivers log their blocks, null without the write-ahead log
 * @param hadoopConf the driver's Hadoop configuration, for the log's file system (null without the log)
 */
record ReceiverSpec(int streamId, String source, String trackerName, StorageLevel storageLevel,
        BlockFormat format, SourceSettings settings, String walDirectory, SerializableConfiguration hadoopConf)
        implements Serializable {
}
