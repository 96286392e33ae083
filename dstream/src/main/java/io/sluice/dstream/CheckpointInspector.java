package io.sluice.dstream;

import io.sluice.dstream.internal.offline.CheckpointDirectory;
import io.sluice.dstream.internal.offline.CheckpointReport;
import io.sluice.rdd.Time;
import org.apache.hadoop.conf.Configuration;

/**
 * Prints what a checkpoint directory holds: its batches, and for the newest checkpoint (or {@code --batch
 * <ms>}) the operators, each state's keys and bytes per partition, and the source positions. Runs without
 * Spark (Hadoop's configuration from the class path); put the application's jar on the class path so its key
 * and state classes can be decoded. See docs/offline-state.md for the commands.
 *
 * <pre>
 * java -cp "&lt;sluice and application jars&gt;:$SPARK_HOME/jars/*" io.sluice.dstream.CheckpointInspector &lt;dir&gt; [--batch ms]
 * </pre>
 */
public final class CheckpointInspector {
    private CheckpointInspector() {
    }

    public static void main(String[] args) {
        if (args.length != 1 && !(args.length == 3 && args[1].equals("--batch"))) {
            System.err.println("usage: CheckpointInspector <checkpoint directory> [--batch <batch ms>]");
            System.exit(2);
        }
        try {
            Time batch = args.length == 3 ? new Time(Long.parseLong(args[2])) : null;
            System.out.print(report(args[0], batch));
        } catch (RuntimeException e) {
            System.err.println(e.getMessage());
            System.exit(1);
        }
    }

    /** The text {@link #main} prints, for the checkpoint of {@code batch} (null: the newest). */
    public static String report(String directory, Time batch) {
        return new CheckpointReport(new CheckpointDirectory(directory, new Configuration())).render(batch);
    }
}
