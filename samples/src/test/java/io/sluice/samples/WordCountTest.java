package io.sluice.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.testkit.StreamTester;
import io.sluice.rdd.Time;
import io.sluice.dstream.scheduler.BatchInfo;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

class WordCountTest {
    @Test
    void printsEachBatchsTopWordsMostFrequentFirstTiesByWord() {
        List<String> out = new CopyOnWriteArrayList<>();
        try (StreamTester tester = new StreamTester()) {
            WordCount.topWords(tester.input(List.of(
                    List.of("a b a", "c b a", "d e f"),
                    List.of(),
                    List.of("x"))), 5, out::add);
            tester.runBatches(3);
        }
        assertEquals(3, out.size());
        assertTrue(out.get(0).endsWith(" top words: a=3, b=2, c=1, d=1, e=1"), out.get(0));
        assertTrue(out.get(1).endsWith(" top words: (none)"), out.get(1));
        assertTrue(out.get(2).endsWith(" top words: x=1"), out.get(2));
    }

    @Test
    void countsEveryGeneratedRecordOverAllKeys() {
        List<String> out = new CopyOnWriteArrayList<>();
        try (StreamTester tester = new StreamTester()) {
            WordCount.topWords(tester.context().generatorStream(1_000, 10, 0), 10, out::add);
            tester.runBatches(1);
        }
        String counts = out.get(0).substring(out.get(0).indexOf("top words: ") + "top words: ".length());
        int total = 0;
        int words = 0;
        for (String entry : counts.split(", ")) {
            total += Integer.parseInt(entry.substring(entry.indexOf('=') + 1));
            words++;
        }
        assertEquals(1_000, total);
        assertEquals(10, words);
    }

    @Test
    void optionsHaveDefaultsAndRejectUnknownOnes() {
        assertEquals(new WordCount.Options(100_000, 10_000, 10, Duration.ofSeconds(1)), WordCount.Options.parse());
        assertEquals(new WordCount.Options(5, 2, 3, Duration.ofMillis(500)),
                WordCount.Options.parse("--records", "5", "--keys", "2", "--batches", "3", "--interval-ms", "500"));
        assertThrows(IllegalArgumentException.class, () -> WordCount.Options.parse("--recs", "5"));
        assertThrows(IllegalArgumentException.class, () -> WordCount.Options.parse("--batches"));
        assertThrows(IllegalArgumentException.class, () -> WordCount.Options.parse("--batches", "0"));
    }

    @Test
    void progressLineShowsRecordsProcessingAndSchedulingDelay() {
        BatchInfo info = new BatchInfo(new Time(3_000), 42, 0, 3_001, 3_010, 3_110, Map.of(), Map.of());
        assertEquals("batch 1970-01-01T00:00:03Z: 42 records, processing 100 ms, scheduling delay 10 ms",
                WordCount.progressLine(info));
    }
}
