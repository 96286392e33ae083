package io.sluice.dstream.source.internal.file;

/** A file as a listing saw it: its full path, length and modification time (ms). */
public record FileEntry(String path, long length, long modificationTime) {
    public FileEntry {
        if (path == null || path.isEmpty() || length < 0) {
            throw new IllegalArgumentException("a file entry needs a path and a length >= 0: " + path + ", " + length);
        }
    }

    /** Whether the name says the file is still being written or is not data (Hadoop and editor conventions). */
    public static boolean looksInProgress(String name) {
        return name.startsWith(".") || name.startsWith("_") || name.endsWith("._COPYING_") || name.endsWith(".tmp")
                || name.endsWith(".inprogress") || name.endsWith(".crc");
    }
}
