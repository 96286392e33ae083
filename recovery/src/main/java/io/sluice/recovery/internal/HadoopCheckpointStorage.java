package io.sluice.recovery.internal;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/** A checkpoint directory on any Hadoop file system (a local path, hdfs://, s3a://...). */
public final class HadoopCheckpointStorage implements CheckpointStorage {
    private final FileSystem fs;
    private final Path root;

    public HadoopCheckpointStorage(String directory, Configuration conf) throws IOException {
        Path dir = new Path(directory);
        this.fs = HadoopFiles.fileSystem(dir, conf);
        this.root = fs.makeQualified(dir);
    }

    public FileSystem fileSystem() {
        return fs;
    }

    public Path root() {
        return root;
    }

    @Override
    public List<String> listFiles(String dir) throws IOException {
        Path base = resolve(dir);
        List<String> result = new ArrayList<>();
        if (!fs.exists(base)) {
            return result;
        }
        String prefix = root.toUri().getPath();
        collectFiles(base, prefix.length() + (prefix.endsWith("/") ? 0 : 1), result);
        return result;
    }

    // listStatus, not listFiles: located statuses ask for permissions, which the local file system reads by
    // running "ls" once per file
    private void collectFiles(Path dir, int prefixLength, List<String> result) throws IOException {
        FileStatus[] children;
        try {
            children = fs.listStatus(dir);
        } catch (FileNotFoundException e) {
            return; // deleted while listing
        }
        for (FileStatus child : children) {
            if (child.isDirectory()) {
                collectFiles(child.getPath(), prefixLength, result);
            } else {
                result.add(child.getPath().toUri().getPath().substring(prefixLength));
            }
        }
    }

    @Override
    public byte[] read(String path) throws IOException {
        Path file = resolve(path);
        long length = fs.getFileStatus(file).getLen();
        if (length > Integer.MAX_VALUE) {
            throw new IOException(file + " is too large to be a checkpoint file");
        }
        byte[] bytes = new byte[(int) length];
        try (FSDataInputStream in = fs.open(file)) {
            in.readFully(0, bytes);
        }
        return bytes;
    }

    @Override
    public void writeAtomically(String path, byte[] bytes) throws IOException {
        Path file = resolve(path);
        fs.mkdirs(file.getParent());
        HadoopFiles.writeAtomically(fs, file, bytes);
    }

    @Override
    public OptionalLong length(String path) throws IOException {
        try {
            return OptionalLong.of(fs.getFileStatus(resolve(path)).getLen());
        } catch (FileNotFoundException e) {
            return OptionalLong.empty();
        }
    }

    @Override
    public void delete(String path) throws IOException {
        fs.delete(resolve(path), true);
    }

    @Override
    public String describe(String path) {
        return resolve(path).toString();
    }

    private Path resolve(String path) {
        return path.isEmpty() ? root : new Path(root, path);
    }
}
