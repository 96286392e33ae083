package io.sluice.samples.soak;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Writes the soak's file source input: each {@link #write} moves a whole new file of one-word lines into the
 * directory (written under a hidden name first, as the file source recommends) and deletes the oldest once more
 * than {@code keep} are there, so the directory, and the file source's record of the files it took, stay small.
 */
public final class FileFeeder {
    private final Path directory;
    private final int linesPerFile;
    private final int keep;
    private final Deque<Path> written = new ArrayDeque<>();
    private long files;

    public FileFeeder(Path directory, int linesPerFile, int keep) {
        this.directory = directory;
        this.linesPerFile = linesPerFile;
        this.keep = keep;
    }

    /** Writes the next file, modified at {@code modifiedAtMillis}; returns its number of lines. */
    public int write(long modifiedAtMillis) throws IOException {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < linesPerFile; i++) {
            text.append(SoakPipeline.word(files * linesPerFile + i)).append('\n');
        }
        String name = String.format("part-%08d.txt", files++);
        Path hidden = directory.resolve("." + name);
        Files.writeString(hidden, text, StandardCharsets.UTF_8);
        Files.setLastModifiedTime(hidden, FileTime.fromMillis(modifiedAtMillis));
        Path file = Files.move(hidden, directory.resolve(name), StandardCopyOption.ATOMIC_MOVE);
        written.addLast(file);
        while (written.size() > keep) {
            Files.deleteIfExists(written.removeFirst());
        }
        return linesPerFile;
    }
}
