package io.sluice.samples.bench;

/**
 * The main class of a forked benchmark JVM: measures one workload on one side and prints the {@link
 * Measurement} as its last stdout line. Arguments: workload id, side ({@link Side} name).
 */
public final class SideRunner {
    private SideRunner() {
    }

    public static void main(String[] args) {
        int status = 0;
        try {
            if (args.length != 2) {
                throw new IllegalArgumentException("usage: SideRunner <workload id> <SLUICE|SPARK_STREAMING>");
            }
            Measurement m = Workloads.byId(args[0]).run(Side.valueOf(args[1]), BenchSettings.fromSystemProperties());
            System.out.println(m.toLine());
        } catch (Throwable t) {
            t.printStackTrace();
            // the line the benchmark reports (Forked.failureIn)
            System.err.println(Forked.FAILED + (t.getMessage() != null ? t.getMessage() : t));
            status = 1;
        }
        System.out.flush();
        // Spark leaves non-daemon threads behind; the measurement is printed, so end the JVM here.
        System.exit(status);
    }
}
