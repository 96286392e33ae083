package io.sluice.dstream.source.internal.file;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.sluice.rdd.Time;
import java.util.List;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** Which files each batch takes, and how the taken set survives a restart through the saved position. */
class FileSelectionTest {
    private static final FileEntry A = new FileEntry("hdfs://nn/in/a file%.txt", 10, 500);
    private static final FileEntry B = new FileEntry("hdfs://nn/in/b.txt", 20, 1500);
    private static final FileEntry C = new FileEntry("hdfs://nn/in/c.txt", 30, 2500);

    private static Time t(long ms) {
        return new Time(ms);
    }

    @Test
    void eachFileIsTakenOnceAndARecomputedBatchGetsTheSameFiles() {
        FileSelection s = new FileSelection(0, 0);
        assertEquals(List.of(A), s.select(t(1000), List.of(A)));
        assertEquals(List.of(B), s.select(t(2000), List.of(A, B)));
        assertEquals(List.of(A), s.select(t(1000), List.of(A, B, C)), "batch 1000 chose already");
        assertEquals(List.of(), s.select(t(2000 + 1000), List.of(A, B)));
    }

    @Test
    void filesFromTheFutureOrBeforeTheStartAreNotTaken() {
        FileSelection s = new FileSelection(0, 600);
        assertEquals(List.of(), s.select(t(1000), List.of(A, B)), "A is before the start, B after the batch");
        assertEquals(List.of(B), s.select(t(2000), List.of(A, B)));
    }

    @Test
    void aRecentFileIsTakenOnlyWhenUnchangedSinceThePreviousListing() {
        FileSelection s = new FileSelection(1000, 0);
        FileEntry growing = new FileEntry("/in/g", 5, 1900);
        FileEntry grown = new FileEntry("/in/g", 9, 2900);
        assertEquals(List.of(), s.select(t(2000), List.of(growing)));
        assertEquals(List.of(), s.select(t(3000), List.of(grown)));
        assertEquals(List.of(grown), s.select(t(4000), List.of(grown)));
    }

    @Test
    void aRestartedDriverRerunsBatchesWithTheirFilesAndNeverTakesAFileTwice() {
        FileSelection before = new FileSelection(0, 0);
        before.select(t(1000), List.of(A));
        before.select(t(2000), List.of(A, B));
        TreeMap<Time, String> saved = new TreeMap<>();
        saved.put(t(1000), before.positionAfter(t(1000))); // the last completed batch
        saved.put(t(2000), before.positionAfter(t(2000))); // generated, not completed: runs again

        FileSelection after = new FileSelection(0, Long.MIN_VALUE);
        after.restore(saved);
        assertEquals(List.of(B), after.select(t(2000), List.of(A, B, C)), "the rerun batch reads what it read");
        assertEquals(List.of(C), after.select(t(3000), List.of(A, B, C)), "only the file that came meanwhile");
        assertEquals(3, after.takenCount());
    }

    @Test
    void onlyTheNewestPositionCarriesTheTakenSetAndARestoreFromAllOfThemTakesNoFileTwice() {
        FileSelection before = new FileSelection(0, 0);
        List<FileEntry> directory = new java.util.ArrayList<>();
        for (int i = 1; i <= 50; i++) {
            directory.add(new FileEntry("/in/f" + i, i, i * 1000L - 1));
            assertEquals(List.of(directory.get(i - 1)), before.select(t(i * 1000L), List.copyOf(directory)));
        }
        TreeMap<Time, String> saved = new TreeMap<>();
        for (int i = 41; i <= 50; i++) { // a checkpoint's batches: its state checkpoint's and the pending ones
            saved.put(t(i * 1000L), before.positionAfter(t(i * 1000L)));
        }
        assertEquals(List.of("files-v1", "ignoreUpTo 0", "batch 45 44999 %2Fin%2Ff45"),
                List.of(saved.get(t(45_000)).split("\n")), "an older batch's position: its own files only");
        assertEquals(2 + 1 + 50, saved.get(t(50_000)).split("\n").length, "the newest: every file taken");

        FileSelection after = new FileSelection(0, Long.MIN_VALUE);
        after.restore(saved);
        assertEquals(50, after.takenCount());
        assertEquals(List.of(directory.get(44)), after.select(t(45_000), List.copyOf(directory)),
                "a rerun batch reads what it read");
        FileEntry next = new FileEntry("/in/f51", 51, 50_500);
        directory.add(next);
        assertEquals(List.of(next), after.select(t(51_000), List.copyOf(directory)), "no file is taken twice");
    }

    @Test
    void positionsAreVersionedAndCheckedOnRestore() {
        FileSelection s = new FileSelection(0, 0);
        TreeMap<Time, String> bad = new TreeMap<>();
        bad.put(t(1000), "files-v9\n");
        assertThrows(IllegalArgumentException.class, () -> s.restore(bad));
    }

    @Test
    void aFileThatLeftTheDirectoryIsForgotten() {
        FileSelection s = new FileSelection(0, 0);
        s.select(t(1000), List.of(A));
        s.forgetBatchesUpTo(t(1000));
        s.select(t(2000), List.of(B));
        assertEquals(1, s.takenCount(), "A was moved away: the taken set stays as small as the directory");
    }
}
