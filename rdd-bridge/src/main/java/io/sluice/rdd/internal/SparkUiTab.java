package io.sluice.rdd.internal;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.SparkContext;
import org.apache.spark.ui.SparkUI;
import org.apache.spark.ui.SparkUITab;
import org.apache.spark.ui.UIUtils;
import org.apache.spark.ui.WebUIPage;
import scala.Option;

/**
 * A "Streaming" tab in the driver's Spark UI, as Spark Streaming adds one. Spark's UI classes are private to
 * Spark (public in bytecode), so this is the one class that touches them: it attaches the tab with two pages
 * ({@code /streaming/} and {@code /streaming/batch/?id=<ms>}) rendered inside Spark's header, and a servlet at
 * {@code /streaming/api} for the JSON endpoints and the page's own assets. What the pages and the servlet say
 * comes from a {@link Content}, written without Spark's UI types.
 */
public final class SparkUiTab {
    public static final String PREFIX = "streaming";
    private static final String API = "/" + PREFIX + "/api";

    /** What the tab shows; called on Spark's UI threads. */
    public interface Content {
        /**
         * The HTML body of a page ({@code ""} the overview, {@code "batch"} a batch), placed in Spark's page.
         *
         * @param root the UI's root URL path (empty unless Spark runs behind a proxy); the API is under
         *     {@code root + "/streaming/api"}
         */
        String page(String page, Map<String, String> query, String root);

        /** The response to {@code GET /streaming/api/<path>}. */
        Response api(String path, Map<String, String> query);
    }

    /** An HTTP response: 200 with a body, or an error status with a message. */
    public record Response(int status, String contentType, byte[] body) {
    }

    private final SparkUI ui;
    private final SparkUITab tab;

    private SparkUiTab(SparkUI ui, SparkUITab tab) {
        this.ui = ui;
        this.tab = tab;
    }

    /** Attaches the tab to {@code sc}'s UI; empty when Spark's UI is disabled ({@code spark.ui.enabled=false}). */
    public static Optional<SparkUiTab> attach(SparkContext sc, Content content) {
        Option<SparkUI> maybeUi = sc.ui();
        if (maybeUi.isEmpty()) {
            return Optional.empty();
        }
        SparkUI ui = maybeUi.get();
        SparkUITab tab = new SparkUITab(ui, PREFIX) {
        };
        tab.attachPage(new Page(tab, "", "Streaming Statistics", content));
        tab.attachPage(new Page(tab, "batch", "Streaming Batch", content));
        ui.attachTab(tab);
        ui.attachHandler(API, new ApiServlet(content), "/*");
        return Optional.of(new SparkUiTab(ui, tab));
    }

    /** The page's address, e.g. {@code http://127.0.0.1:4040/streaming/}. */
    public String url() {
        return ui.webUrl() + "/" + PREFIX + "/";
    }

    public void detach() {
        ui.detachHandler(API);
        ui.detachTab(tab);
    }

    private static Map<String, String> query(HttpServletRequest request) {
        Map<String, String> query = new HashMap<>();
        request.getParameterMap().forEach((k, v) -> query.put(k, v.length == 0 ? "" : v[0]));
        return query;
    }

    private static final class Page extends WebUIPage {
        private final SparkUITab tab;
        private final String name; // attaching prefixes the page's prefix with the tab's
        private final String title;
        private final Content content;

        Page(SparkUITab tab, String prefix, String title, Content content) {
            super(prefix);
            this.name = prefix;
            this.tab = tab;
            this.title = title;
            this.content = content;
        }

        @Override
        public scala.collection.immutable.Seq<scala.xml.Node> render(HttpServletRequest request) {
            String root = UIUtils.prependBaseUri(request, "", "");
            String html = content.page(name, query(request), root);
            return UIUtils.headerSparkPage(request, title, () -> new scala.xml.Unparsed(html), tab,
                    UIUtils.headerSparkPage$default$5(), UIUtils.headerSparkPage$default$6(),
                    UIUtils.headerSparkPage$default$7(), UIUtils.headerSparkPage$default$8());
        }
    }

    private static final class ApiServlet extends HttpServlet {
        private final transient Content content;

        ApiServlet(Content content) {
            this.content = content;
        }

        @Override
        protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
            String path = request.getRequestURI().substring(request.getContextPath().length());
            Response r = content.api(path.startsWith("/") ? path.substring(1) : path, query(request));
            response.setStatus(r.status());
            response.setContentType(r.contentType());
            response.setHeader("Cache-Control", "no-cache, no-store, must-revalidate");
            response.getOutputStream().write(r.body());
        }
    }
}
