package io.sluice.samples.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.stream.Stream;

/** Where and when a benchmark ran, as docs/performance.md records it. */
record Machine(int cores, String cpu, String java, String date, String load) {
    static Machine current() {
        return new Machine(Runtime.getRuntime().availableProcessors(), cpuModel(),
                System.getProperty("java.version") + " (" + System.getProperty("java.vm.name") + ", "
                        + System.getProperty("java.vendor") + ")",
                ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'")),
                loadAverage());
    }

    private static String cpuModel() {
        try (Stream<String> lines = Files.lines(Path.of("/proc/cpuinfo"))) {
            return lines.filter(l -> l.startsWith("model name")).map(l -> l.substring(l.indexOf(':') + 1).trim())
                    .findFirst().orElse("unknown CPU");
        } catch (IOException | RuntimeException e) {
            return "unknown CPU";
        }
    }

    /** The 1-minute load average when the run started: the machine is shared, and this says how busy it was. */
    private static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
        } catch (IOException | RuntimeException e) {
            return "?";
        }
    }

    @Override
    public String toString() {
        return cores + " cores, " + cpu + ", Java " + java + ", " + date + ", load " + load;
    }
}
