package io.sluice.recovery.internal;

import java.io.IOException;
import java.util.List;
import java.util.OptionalLong;

/**
 * The files of one checkpoint directory, as the driver sees them: the seam between the checkpoint store's
 * logic (formats, fallback, retention) and a file system. Paths are relative to the directory, with '/'.
 * {@link HadoopCheckpointStorage} is the real one; {@link InMemoryCheckpointStorage} serves tests.
 */
public interface CheckpointStorage {
    /** Relative paths of every file under {@code dir}, at any depth; empty when {@code dir} does not exist. */
    List<String> listFiles(String dir) throws IOException;

    byte[] read(String path) throws IOException;

    /** Writes {@code path} so that a reader sees all of {@code bytes} or no file at all. */
    void writeAtomically(String path, byte[] bytes) throws IOException;

    /** The length of {@code path}, or empty when it does not exist. */
    OptionalLong length(String path) throws IOException;

    /** Deletes a file, or a directory with everything in it; nothing happens when it does not exist. */
    void delete(String path) throws IOException;

    /** The full location of {@code path}, for messages. */
    String describe(String path);
}
