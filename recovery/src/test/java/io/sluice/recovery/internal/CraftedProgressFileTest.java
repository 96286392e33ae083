package io.sluice.recovery.internal;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectOutputStream;
import java.util.Locale;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A progress file is text Sluice parses itself: one that names a class (as a line of its own, or as a Java
 * serialization stream) is refused with an error naming the file and the class, and the class never runs.
 */
class CraftedProgressFileTest {
    private static final String FLAG = "sluice.test.craftedProgressFile.loaded";
    private static final String FILE = "progress/checkpoint-3000";

    private final InMemoryCheckpointStorage storage = new InMemoryCheckpointStorage();
    private final CheckpointStore store = new CheckpointStore(storage, 3);

    /** What a crafted file would name: initialising it sets a visible flag. */
    static final class SideEffect {
        static {
            System.setProperty(FLAG, "loaded");
        }
    }

    @AfterEach
    void flagNeverSet() {
        assertNull(System.getProperty(FLAG), "the class named by the progress file was initialised");
    }

    @Test
    void aLineNamingAClassIsRefusedNamingTheFileAndTheClass() throws IOException {
        String body = new String(CheckpointFormat.encode(Checkpoints.at(3000, 2000, 2)), UTF_8);
        body = body.substring(0, body.lastIndexOf("crc32c ")) + "class " + SideEffect.class.getName() + "\n";
        byte[] bytes = body.getBytes(UTF_8);
        String trailer = String.format(Locale.ROOT, "crc32c %08x\n", CheckpointFormat.crc(bytes, bytes.length));
        storage.writeAtomically(FILE, (body + trailer).getBytes(UTF_8));

        IOException e = assertThrows(IOException.class, store::latest);
        assertTrue(e.getMessage().contains("memory:/" + FILE), e.getMessage());
        assertTrue(e.getMessage().contains(SideEffect.class.getName()), e.getMessage());
    }

    @Test
    void aJavaSerializedObjectIsRefusedNamingTheFile() throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(new java.util.ArrayList<>(java.util.List.of("a Java-serialized object")));
        }
        storage.writeAtomically(FILE, bytes.toByteArray());

        IOException e = assertThrows(IOException.class, store::latest);
        assertTrue(e.getMessage().contains("memory:/" + FILE + " is unusable: it does not start with"),
                e.getMessage());
    }
}
