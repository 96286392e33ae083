package io.sluice.dstream.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.dstream.DStream;
import io.sluice.dstream.StreamingContext;
import io.sluice.dstream.receiver.Receiver;
import io.sluice.dstream.scheduler.BatchInfo;
import io.sluice.dstream.scheduler.StateOperatorInfo;
import io.sluice.dstream.scheduler.StreamingListener;
import io.sluice.dstream.testing.ReceiverEvents;
import io.sluice.rdd.internal.SparkContexts;
import io.sluice.state.State;
import io.sluice.state.StateSpec;
import io.sluice.testkit.ManualClock;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.logging.Level;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkContext$;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.Optional;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.TimeoutException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;
import org.openqa.selenium.support.ui.WebDriverWait;
import scala.Tuple2;

/**
 * The Streaming page in a real browser (Debian's headless chromium through chromedriver): a job runs six batches
 * on a manual clock, with a receiver that stores three records and stops; then the page must show what a person
 * would check: the charts drawn with a point per batch, the completed batches table with exactly the figures the
 * listener received, a batch's page with its inputs, output operations and Spark jobs, the receiver as stopped,
 * and no error in the browser's console; the charts with time axes, labelled values, hover explanations and the
 * dashed batch interval on processing time, as Spark's tab has them. The run report, opened from its file, shows
 * the same table. Then a batch held in its first output shows as running (with its output operations' progress)
 * and the next as waiting. Screenshots go to {@code target/streaming-page.png}, {@code target/streaming-batch.png}
 * and {@code target/streaming-running.png}.
 */
class StreamingPageBrowserTest {
    private static final int BATCHES = 6;

    /** Stores three records, then stops itself: the page must show it stopped. */
    static final class ThreeRecords extends Receiver<String> {
        @Override
        public void onStart() {
            Thread t = new Thread(() -> {
                store(List.of("x", "y", "z"));
                stop("stored all it had");
            }, "three-records");
            t.setDaemon(true);
            t.start();
        }

        @Override
        public void onStop() {
        }
    }

    @Test
    void thePageShowsWhatTheListenerHeard() throws Exception {
        // Spark's UI is off in the shared test context; this test needs its own SparkContext with the UI on.
        SparkContext$.MODULE$.getActive().foreach(sc -> {
            sc.stop();
            return null;
        });
        SparkConf conf = new SparkConf().setMaster("local[2]").setAppName("sluice-ui-test")
                .set("spark.ui.enabled", "true").set("spark.ui.port", "0").set("spark.ui.showConsoleProgress", "false")
                .set("spark.driver.host", "127.0.0.1").set("spark.driver.bindAddress", "127.0.0.1");
        JavaSparkContext jsc = SparkContexts.getOrCreate(conf);
        jsc.setLogLevel("WARN");
        ManualClock clock = new ManualClock();
        StreamingContext ssc = StreamingContext.create(jsc, Duration.ofSeconds(1), clock);
        WebDriver browser = null;
        try {
            // Each batch's output takes (its number × 40) ms of the manual clock: processing times differ.
            // The batch after them holds its first output until released: the page shows it running, the next waiting.
            CountDownLatch release = new CountDownLatch(1);
            DStream<String> words = ssc.generatorStream(1000, 50, 7L);
            words.map(String::length).foreachRDD((rdd, time) -> {
                rdd.count();
                if (time.milliseconds() == (BATCHES + 1) * 1000L) {
                    release.await(120, TimeUnit.SECONDS);
                }
                clock.advance(Duration.ofMillis(40 * (time.milliseconds() / 1000)));
            });
            // A stateful operator: the page's State section shows its keys per batch (50 words: 50 keys).
            words.mapToPair(w -> new Tuple2<>(w, 1L)).mapWithState(StateSpec.function(
                    StreamingPageBrowserTest::count)).name("counts").foreachRDD(rdd -> {
                        rdd.count();
                    });
            ssc.receiverStream(new ThreeRecords()).count().foreachRDD(rdd -> {
                rdd.collect();
            });
            BlockingQueue<BatchInfo> completed = new LinkedBlockingQueue<>();
            ssc.addStreamingListener(new StreamingListener() {
                @Override
                public void onBatchCompleted(BatchCompleted event) {
                    completed.add(event.batchInfo());
                }
            });
            ReceiverEvents receiverEvents = new ReceiverEvents();
            ssc.addStreamingListener(receiverEvents);
            ssc.start();
            receiverEvents.await("stopped");
            List<BatchInfo> heard = new ArrayList<>();
            for (int b = 0; b < BATCHES; b++) {
                clock.setTime((b + 1) * 1000L);
                BatchInfo info = completed.poll(60, TimeUnit.SECONDS);
                assertTrue(info != null, "batch " + b + " did not complete");
                heard.add(info);
            }
            String url = ssc.uiUrl().orElseThrow(() -> new AssertionError("no Streaming page with the UI on"));

            browser = chromium();
            browser.get(url);
            WebDriver page = browser;
            awaitTrue(page, () -> page.findElements(By.cssSelector("#sluice-completed tbody tr")).size() == BATCHES,
                    "the completed batches table lists " + BATCHES + " batches");
            screenshot(browser, "streaming-page.png");

            // The charts: a timeline point and a histogram count per batch.
            List<WebElement> timelines = browser.findElements(By.cssSelector("#sluice-charts polyline.timeline"));
            assertEquals(4, timelines.size());
            assertEquals(String.valueOf(BATCHES), timelines.get(0).getAttribute("data-points"), "input rate points");
            for (WebElement t : timelines) {
                assertTrue(Integer.parseInt(t.getAttribute("data-points")) == BATCHES, "points of a timeline");
            }
            assertEquals(4 * BATCHES, browser.findElements(By.cssSelector("#sluice-charts circle")).size());
            int histogram = browser.findElements(By.cssSelector("#sluice-charts tr[data-series=totalDelay] rect.bar"))
                    .stream().mapToInt(r -> Integer.parseInt(r.getAttribute("data-count"))).sum();
            assertEquals(BATCHES, histogram, "the total delay histogram counts every batch");
            // Time axes with labelled values, a hover explanation per figure, and the dashed batch interval
            // ("stable") on processing time only, as in Spark's tab.
            for (WebElement chart : browser.findElements(By.cssSelector("#sluice-charts tr.chart"))) {
                String series = chart.getAttribute("data-series");
                assertTrue(chart.findElement(By.cssSelector(".tip")).getAttribute("title").length() > 40, series);
                List<String> times = chart.findElements(By.cssSelector("td:nth-child(2) svg text.tick.x")).stream()
                        .map(WebElement::getText).toList();
                assertEquals(List.of("00:00:01", "00:00:03", "00:00:06"), times.subList(0, 3),
                        series + ": the batch times of the first, middle and last batch on the time axis");
                assertEquals(3, chart.findElements(By.cssSelector("td:nth-child(2) svg text.tick.y")).size(), series);
                assertEquals(BATCHES, chart.findElements(By.cssSelector("circle title")).size(),
                        series + ": every point explains itself on hover");
                int stable = series.equals("processingTime") ? 2 : 0; // the timeline's and the histogram's
                List<WebElement> lines = chart.findElements(By.cssSelector("line.stable"));
                assertEquals(stable, lines.size(), series);
                for (WebElement line : lines) {
                    assertEquals("1000", line.getAttribute("data-ms"), "the batch interval");
                }
            }
            assertEquals("0 ms", browser.findElement(By.cssSelector(
                    "#sluice-charts tr[data-series=processingTime] svg text.tick.y")).getText());

            // The table, newest first, has the listener's figures.
            List<WebElement> rows = browser.findElements(By.cssSelector("#sluice-completed tbody tr"));
            for (int i = 0; i < BATCHES; i++) {
                BatchInfo expected = heard.get(BATCHES - 1 - i);
                WebElement row = rows.get(i);
                assertEquals(String.valueOf(expected.batchTime().milliseconds()), row.getAttribute("data-batch"));
                assertEquals(String.valueOf(expected.numRecords()), cell(row, "records").getText());
                assertEquals(String.valueOf(expected.schedulingDelay()), cell(row, "scheduling-delay").getAttribute("data-ms"));
                assertEquals(String.valueOf(expected.processingDelay()), cell(row, "processing-time").getAttribute("data-ms"));
                assertEquals(String.valueOf(expected.totalDelay()), cell(row, "total-delay").getAttribute("data-ms"));
                assertEquals("succeeded", cell(row, "status").getText());
                int outputs = expected.outputOperationInfos().size();
                assertEquals(outputs + "/" + outputs, cell(row, "output-ops").getText(), "output ops done of all");
            }
            assertEquals(String.valueOf(BATCHES), browser.findElement(By.id("sluice-completed-count")).getText());

            // The State section: the stateful operator's keys after the newest batch, and per batch in its table.
            WebElement state = browser.findElement(By.cssSelector(".state-operator[data-operator=counts]"));
            assertEquals(String.valueOf(stateOf(heard.get(BATCHES - 1)).numKeys()),
                    state.findElement(By.cssSelector(".state-keys")).getText());
            List<WebElement> stateRows = state.findElements(By.cssSelector("tbody tr"));
            assertEquals(BATCHES, stateRows.size());
            for (WebElement row : stateRows) {
                BatchInfo batch = heard.stream().filter(b -> String.valueOf(b.batchTime().milliseconds())
                        .equals(row.getAttribute("data-batch"))).findFirst().orElseThrow();
                assertEquals(String.valueOf(stateOf(batch).numKeys()), cell(row, "keys").getText());
                assertEquals(String.valueOf(stateOf(batch).timedOutKeys()), cell(row, "timed-out").getText());
            }

            // The receiver stopped by itself; the queue stream has no receiver and is active.
            WebElement receiver = browser.findElements(By.cssSelector("#sluice-sources tbody tr")).stream()
                    .filter(r -> r.getText().contains("receiverStream")).findFirst().orElseThrow();
            assertEquals("stopped", receiver.findElement(By.cssSelector("td.status")).getText());

            // A batch's page: its inputs, output operations and the Spark jobs it ran.
            BatchInfo newest = heard.get(BATCHES - 1);
            String batchPage = rows.get(0).findElement(By.cssSelector("a.batch-link")).getAttribute("href");
            assertTrue(batchPage.endsWith("/streaming/batch/?id=" + newest.batchTime().milliseconds()), batchPage);
            browser.get(batchPage);
            awaitTrue(page, () -> !page.findElements(By.id("sluice-batch")).isEmpty(), "the batch page");
            awaitTrue(page, () -> !page.findElements(By.cssSelector("#sluice-jobs tbody tr")).isEmpty(),
                    "the Spark jobs of the batch");
            assertEquals(String.valueOf(newest.batchTime().milliseconds()),
                    browser.findElement(By.id("sluice-batch")).getAttribute("data-batch"));
            assertEquals(String.valueOf(newest.numRecords()),
                    browser.findElement(By.cssSelector("#sluice-batch .records")).getText());
            assertEquals(newest.outputOperationInfos().size(),
                    browser.findElements(By.cssSelector("#sluice-outputs tbody tr")).size());
            assertEquals(String.valueOf(stateOf(newest).numKeys()), cell(browser.findElement(
                    By.cssSelector("#sluice-batch-state tbody tr[data-operator=counts]")), "keys").getText());
            assertTrue(browser.findElement(By.cssSelector("#sluice-jobs tbody tr a")).getAttribute("href")
                    .contains("/jobs/job/?id="), "a batch's jobs link to Spark's job pages");
            screenshot(browser, "streaming-batch.png");
            assertNoConsoleErrors(browser);

            // The run report: the same table, from a file, without the driver.
            Path report = Path.of("target", "streaming-report.html").toAbsolutePath();
            ssc.writeReport(report);
            browser.get(report.toUri().toString());
            awaitTrue(page, () -> page.findElements(By.cssSelector("#sluice-completed tbody tr")).size() == BATCHES,
                    "the report lists " + BATCHES + " batches");
            assertEquals(String.valueOf(heard.get(BATCHES - 1).numRecords()), cell(page.findElements(
                    By.cssSelector("#sluice-completed tbody tr")).get(0), "records").getText());
            assertNoConsoleErrors(browser);

            // Running and waiting batches apart: the next batch holds its first output, the one after it waits.
            clock.setTime((BATCHES + 1) * 1000L);
            clock.setTime((BATCHES + 2) * 1000L);
            browser.get(url);
            awaitTrue(page, () -> page.findElements(By.cssSelector("#sluice-running tbody tr")).size() == 1
                    && page.findElements(By.cssSelector("#sluice-waiting tbody tr")).size() == 1,
                    "one running and one waiting batch");
            WebElement running = browser.findElement(By.cssSelector("#sluice-running tbody tr"));
            assertEquals(String.valueOf((BATCHES + 1) * 1000L), running.getAttribute("data-batch"));
            assertEquals("processing", cell(running, "status").getText());
            assertEquals("1", cell(running, "output-ops").getAttribute("data-running"), "its first output runs");
            assertEquals("0/3", cell(running, "output-ops").getText());
            WebElement waiting = browser.findElement(By.cssSelector("#sluice-waiting tbody tr"));
            assertEquals(String.valueOf((BATCHES + 2) * 1000L), waiting.getAttribute("data-batch"));
            assertEquals("queued", cell(waiting, "status").getText());
            screenshot(browser, "streaming-running.png");
            browser.get(running.findElement(By.cssSelector("a.batch-link")).getAttribute("href"));
            awaitTrue(page, () -> !page.findElements(By.cssSelector("#sluice-outputs tbody tr")).isEmpty(),
                    "the running batch's page");
            assertEquals(List.of("running", "waiting", "waiting"), browser.findElements(
                    By.cssSelector("#sluice-outputs tbody tr")).stream().map(r -> r.getAttribute("data-status"))
                    .toList(), "each output operation's progress");
            assertEquals("0/3", browser.findElement(By.cssSelector("#sluice-outputs-progress .progress-text"))
                    .getText());
            release.countDown();
            for (int b = 0; b < 2; b++) {
                assertTrue(completed.poll(60, TimeUnit.SECONDS) != null, "the held batches completed");
            }
            assertNoConsoleErrors(browser);
        } finally {
            if (browser != null) {
                browser.quit();
            }
            ssc.stop(true, false);
        }
    }

    private static Long count(String word, Optional<Long> one, State<Long> state) {
        long n = (state.exists() ? state.get() : 0L) + one.orElse(0L);
        state.update(n);
        return n;
    }

    private static StateOperatorInfo stateOf(BatchInfo batch) {
        StateOperatorInfo info = batch.stateOperatorInfos().get("counts");
        assertTrue(info != null && info.numKeys() == 50, "the listener heard the state of " + batch.batchTime()
                + ": " + info);
        return info;
    }

    private static WebElement cell(WebElement row, String cls) {
        return row.findElement(By.cssSelector("td." + cls));
    }

    private static WebDriver chromium() {
        File driver = new File("/usr/bin/chromedriver");
        File binary = new File("/usr/bin/chromium");
        if (!driver.canExecute() || !binary.canExecute()) {
            throw new AssertionError("this test needs Debian's chromium and chromium-driver packages "
                    + "(apt-get install -y chromium chromium-driver; .ci/run installs them)");
        }
        ChromeOptions options = new ChromeOptions().setBinary(binary)
                .addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                        "--window-size=1400,1800");
        LoggingPreferences logs = new LoggingPreferences();
        logs.enable(LogType.BROWSER, Level.ALL);
        options.setCapability("goog:loggingPrefs", logs);
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(driver)
                .usingAnyFreePort().build();
        return new ChromeDriver(service, options);
    }

    private static void assertNoConsoleErrors(WebDriver browser) {
        List<LogEntry> errors = browser.manage().logs().get(LogType.BROWSER).getAll().stream()
                .filter(e -> e.getLevel().intValue() >= Level.SEVERE.intValue()).toList();
        assertTrue(errors.isEmpty(), "browser console errors: " + errors);
    }

    private static void screenshot(WebDriver browser, String name) throws Exception {
        byte[] png = ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES);
        Files.createDirectories(Path.of("target"));
        Files.write(Path.of("target", name), png);
    }

    /** Waits (Selenium's wait on the page, which redraws every second) until {@code condition} holds, up to 30 s. */
    private static void awaitTrue(WebDriver page, BooleanSupplier condition, String what) throws Exception {
        try {
            new WebDriverWait(page, Duration.ofSeconds(30)).until(d -> condition.getAsBoolean());
        } catch (TimeoutException e) {
            Files.writeString(Path.of("target", "streaming-failure.html"), page.getPageSource());
            screenshot(page, "streaming-failure.png");
            throw new AssertionError("not seen within 30 s: " + what + "; console: "
                    + page.manage().logs().get(LogType.BROWSER).getAll() + "; page in target/streaming-failure.html");
        }
    }
}
