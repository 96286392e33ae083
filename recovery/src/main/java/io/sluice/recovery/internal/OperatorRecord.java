package io.sluice.recovery.internal;

import java.io.Serializable;
import java.util.List;

/**
 * What one operator keeps in a checkpoint, opaque to recovery: the operator's own encoded description (one
 * line of text only the writing layer reads) and the data files it references. Recovery checks that those files
 * exist with their recorded lengths before it offers the checkpoint, and keeps them while a retained checkpoint
 * references them; it never reads them or their labels.
 *
 * @param description the writing layer's text (space-separated tokens, no line break)
 * @param files       the data files this record needs, relative to the checkpoint directory
 */
public record OperatorRecord(String operatorId, String description, List<DataFile> files) {
    public OperatorRecord {
        if (operatorId == null || operatorId.isEmpty()) {
            throw new IllegalArgumentException("an operator record needs an operator id");
        }
        if (!isOneLine(description)) {
            throw new IllegalArgumentException("the record of '" + operatorId + "' needs a one-line description");
        }
        files = List.copyOf(files);
    }

    /**
     * One data file of a record.
     *
     * @param label  the writing layer's text about the file (space-separated tokens, no line break)
     * @param length its length in bytes, checked before the checkpoint is used (a truncated file is never read)
     * @param path   relative to the checkpoint directory
     */
    public record DataFile(String label, long length, String path) implements Serializable {
        public DataFile {
            if (!isOneLine(label) || path == null || path.isEmpty() || length < 0) {
                throw new IllegalArgumentException("invalid data file " + path + " (label '" + label + "', length "
                        + length + ")");
            }
            if (path.startsWith("/") || path.contains("..") || path.contains(" ") || path.contains("\n")) {
                throw new IllegalArgumentException("a data file path must be relative, without spaces or '..': "
                        + path);
            }
        }
    }

    private static boolean isOneLine(String text) {
        return text != null && !text.isEmpty() && !text.contains("\n") && !text.startsWith(" ");
    }
}
