package io.sluice.dstream.source.internal.replay;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/** The files or directories of a recording: a path (a file, or a directory's entries; globs allowed), sorted. */
final class RecordedFiles {
    private RecordedFiles() {
    }

    /** The entries under {@code path} (files, or directories when {@code directories}), hidden ones left out. */
    static List<FileStatus> list(String path, Configuration conf, boolean directories) {
        List<FileStatus> result = new ArrayList<>();
        try {
            Path p = new Path(path);
            FileSystem fs = p.getFileSystem(conf);
            FileStatus[] matched = fs.globStatus(p);
            if (matched == null) {
                throw new IllegalArgumentException("the recording " + path + " does not exist");
            }
            for (FileStatus m : matched) {
                FileStatus[] entries = m.isDirectory() ? fs.listStatus(m.getPath()) : new FileStatus[] {m};
                for (FileStatus s : entries) {
                    String name = s.getPath().getName();
                    if (s.isDirectory() == directories && !name.startsWith(".") && !name.startsWith("_")) {
                        result.add(s);
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(new IOException("cannot list the recording " + path + ": " + e, e));
        }
        result.sort((a, b) -> a.getPath().toString().compareTo(b.getPath().toString()));
        return result;
    }
}
