package io.sluice.recovery.internal;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.rdd.Time;
import io.sluice.recovery.UnusableCheckpointException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CheckpointFormatTest {
    @Test
    void roundTripsEveryField() throws Exception {
        Checkpoint c = Checkpoints.at(5000, 2000, 3);
        assertEquals(c, CheckpointFormat.decode(CheckpointFormat.encode(c), "f"));
    }

    @Test
    void idsAndPositionsMayHoldAnyCharacter() throws Exception {
        String id = "word counts: per user/day\n% ü";
        Checkpoint c = new Checkpoint(new Time(3000), Duration.ofMillis(500), new Time(1000), List.of(),
                new Time(3500), Map.of(id, "updateStateByKey"),
                List.of(new Checkpoint.SourcePosition(id, new Time(3000), "")), List.of());
        byte[] bytes = CheckpointFormat.encode(c);
        assertEquals(c, CheckpointFormat.decode(bytes, "f"));
        String text = new String(bytes, UTF_8);
        assertTrue(text.startsWith("sluice-checkpoint 1\nbatch-time 3000\n"), text);
        assertEquals(8, text.split("\n").length, "one fact per line: " + text);
    }

    @Test
    void everyTruncationIsDetected() {
        byte[] bytes = CheckpointFormat.encode(Checkpoints.at(5000, 2000, 2));
        for (int length = 0; length < bytes.length; length++) {
            byte[] cut = Arrays.copyOf(bytes, length);
            assertThrows(UnusableCheckpointException.class, () -> CheckpointFormat.decode(cut, "f"),
                    "truncated to " + length + " bytes");
        }
    }

    @Test
    void everyFlippedByteIsDetected() {
        byte[] bytes = CheckpointFormat.encode(Checkpoints.at(5000, 2000, 2));
        for (int i = 0; i < bytes.length; i++) {
            byte[] bad = bytes.clone();
            bad[i] ^= 0x04;
            assertThrows(UnusableCheckpointException.class, () -> CheckpointFormat.decode(bad, "f"),
                    "byte " + i + " flipped");
        }
    }

    @Test
    void aNewerFormatVersionIsRefusedWithAClearReason() {
        String text = new String(CheckpointFormat.encode(Checkpoints.at(5000, 2000, 1)), UTF_8)
                .replace("sluice-checkpoint 1", "sluice-checkpoint 2");
        UnusableCheckpointException e = assertThrows(UnusableCheckpointException.class,
                () -> CheckpointFormat.decode(text.getBytes(UTF_8), "progress/checkpoint-5000"));
        assertTrue(e.getMessage().contains("progress/checkpoint-5000"), e.getMessage());
        assertTrue(e.getMessage().contains("format version 2, newer"), e.getMessage());
    }

    @Test
    void aFileThatIsNotACheckpointIsRefused() {
        UnusableCheckpointException e = assertThrows(UnusableCheckpointException.class,
                () -> CheckpointFormat.decode("{\"json\": true}\n".getBytes(UTF_8), "x"));
        assertTrue(e.reason().contains("does not start with"), e.getMessage());
    }
}
