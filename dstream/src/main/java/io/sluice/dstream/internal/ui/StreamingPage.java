package io.sluice.dstream.internal.ui;

import io.sluice.rdd.internal.SparkUiTab;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;

/**
 * The Streaming tab's pages and endpoints: each page is an empty frame that the page's own script
 * ({@code streaming.js}, shipped in the jar with {@code streaming.css}; no CDN) fills from the JSON endpoints,
 * polling every second. The run report uses the same script on documents embedded in the file.
 */
public final class StreamingPage implements SparkUiTab.Content {
    static final String ASSETS = "io/sluice/dstream/ui/";

    private final StatusJson json;

    public StreamingPage(StatusJson json) {
        this.json = json;
    }

    @Override
    public String page(String page, Map<String, String> query, String root) {
        String api = root + "/streaming/api";
        String batch = page.equals("batch") ? query.getOrDefault("id", "") : "";
        return "<link rel=\"stylesheet\" href=\"" + api + "/assets/streaming.css\">"
                + "<div id=\"sluice-streaming\" data-api=\"" + attribute(api) + "\" data-root=\"" + attribute(root)
                + "\" data-batch=\"" + attribute(batch) + "\"></div>"
                + "<script src=\"" + api + "/assets/streaming.js\"></script>";
    }

    @Override
    public SparkUiTab.Response api(String path, Map<String, String> query) {
        if (path.startsWith("assets/")) {
            String name = path.substring("assets/".length());
            if (!name.equals("streaming.js") && !name.equals("streaming.css")) {
                return notFound(path);
            }
            return new SparkUiTab.Response(200, name.endsWith(".js") ? "text/javascript;charset=utf-8"
                    : "text/css;charset=utf-8", asset(name).getBytes(StandardCharsets.UTF_8));
        }
        Optional<String> doc = json.get(path, query);
        return doc.map(d -> new SparkUiTab.Response(200, "application/json;charset=utf-8",
                d.getBytes(StandardCharsets.UTF_8))).orElseGet(() -> notFound(path));
    }

    private static SparkUiTab.Response notFound(String path) {
        return new SparkUiTab.Response(404, "text/plain;charset=utf-8",
                ("no such streaming endpoint: " + path).getBytes(StandardCharsets.UTF_8));
    }

    /** A file of the page's assets, from the jar. */
    static String asset(String name) {
        try (InputStream in = StreamingPage.class.getClassLoader().getResourceAsStream(ASSETS + name)) {
            if (in == null) {
                throw new IllegalStateException("the Streaming page's asset " + name + " is missing from the jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String attribute(String s) {
        return s.replace("&", "&amp;").replace("\"", "&quot;").replace("<", "&lt;");
    }
}
