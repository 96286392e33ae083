package io.sluice.samples;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs a JShell script (as a notebook kernel would) or a class's main on the test class path, in a child JVM. */
final class JShellRun {
    /** What the child printed (stdout and stderr) and its exit code. */
    record Result(String printed, int exitCode) {
        /** The printed lines, stripped, with runs of spaces made one. */
        List<String> lines() {
            return printed.lines().map(l -> l.replaceAll(" +", " ").strip()).toList();
        }
    }

    private JShellRun() {
    }

    static Result script(Path file) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "jshell").toString());
        command.add("--class-path");
        command.add(classPath());
        for (String arg : jvmOptions()) {
            command.add("-R" + arg);
        }
        command.add(file.toString());
        return run(command);
    }

    static Result main(String mainClass, String... args) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions());
        command.add("-cp");
        command.add(classPath());
        command.add(mainClass);
        command.addAll(List.of(args));
        return run(command);
    }

    private static Result run(List<String> command) throws Exception {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        process.getOutputStream().close();
        String printed = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), printed);
        return new Result(printed, process.exitValue());
    }

    /** The module openings and heap of this JVM, which Spark needs in the child too. */
    private static List<String> jvmOptions() {
        List<String> options = new ArrayList<>();
        for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (arg.startsWith("--add-opens") || arg.startsWith("--add-exports") || arg.startsWith("-Xmx")) {
                options.add(arg);
            }
        }
        return options;
    }

    /** The test class path: the modules' classes and jars and every dependency, as surefire gives it. */
    private static String classPath() {
        String cp = System.getProperty("surefire.test.class.path");
        return cp != null && !cp.isBlank() ? cp : System.getProperty("java.class.path").replace(':', File.pathSeparatorChar);
    }
}
