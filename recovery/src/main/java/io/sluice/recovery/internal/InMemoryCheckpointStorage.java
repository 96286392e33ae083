package io.sluice.recovery.internal;

import java.io.FileNotFoundException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentSkipListMap;

/** A checkpoint directory in memory, for tests of the store's logic; tests may damage files at will. */
public final class InMemoryCheckpointStorage implements CheckpointStorage {
    private final Map<String, byte[]> files = new ConcurrentSkipListMap<>();

    @Override
    public List<String> listFiles(String dir) {
        List<String> result = new ArrayList<>();
        String prefix = dir.isEmpty() || dir.endsWith("/") ? dir : dir + "/";
        for (String path : files.keySet()) {
            if (path.startsWith(prefix)) {
                result.add(path);
            }
        }
        return result;
    }

    @Override
    public byte[] read(String path) throws FileNotFoundException {
        byte[] bytes = files.get(path);
        if (bytes == null) {
            throw new FileNotFoundException(describe(path));
        }
        return bytes.clone();
    }

    @Override
    public void writeAtomically(String path, byte[] bytes) {
        files.put(path, bytes.clone());
    }

    @Override
    public OptionalLong length(String path) {
        byte[] bytes = files.get(path);
        return bytes == null ? OptionalLong.empty() : OptionalLong.of(bytes.length);
    }

    @Override
    public void delete(String path) {
        files.remove(path);
        files.keySet().removeIf(p -> p.startsWith(path + "/"));
    }

    @Override
    public String describe(String path) {
        return "memory:/" + path;
    }
}
