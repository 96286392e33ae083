package io.sluice.dstream.internal.ui;

import java.util.List;

/**
 * The run report: one HTML file with the Streaming page's stylesheet and script inlined and every document the
 * page reads embedded (statistics, sources, operators, each page of completed batches, each retained batch), so
 * it opens anywhere, offline, and shows the same charts and tables as the live page did at the end of the run.
 */
final class RunReport {
    private RunReport() {
    }

    static String html(String appName, StatusJson json, StreamingStatus status) {
        Json docs = new Json().object()
                .key("statistics").raw(json.statistics())
                .key("receivers").raw(json.receivers())
                .key("operators").raw(json.operators())
                .key("state").raw(json.state())
                .key("batches?status=active").raw(json.batches(true, 1, StatusJson.PAGE_SIZE));
        int pages = Math.max(1, (status.completedRetained() + StatusJson.PAGE_SIZE - 1) / StatusJson.PAGE_SIZE);
        for (int page = 1; page <= pages; page++) {
            docs.key("batches?status=completed&page=" + page).raw(json.batches(false, page, StatusJson.PAGE_SIZE));
        }
        List<StreamingStatus.Batch> all = status.activeBatches();
        for (StreamingStatus.Batch b : all) {
            docs.key("batches/" + b.info().batchTime().milliseconds()).raw(json.batch(b));
        }
        for (var info : status.completedBatches()) {
            status.batch(info.batchTime().milliseconds())
                    .ifPresent(b -> docs.key("batches/" + info.batchTime().milliseconds()).raw(json.batch(b)));
        }
        docs.end();
        String title = "Sluice run report: " + StreamingPage.attribute(appName);
        return "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>" + title + "</title>\n<style>"
                + StreamingPage.asset("streaming.css") + "</style></head>\n<body><h3>" + title + "</h3>\n"
                + "<div id=\"sluice-streaming\" data-api=\"\" data-root=\"\" data-batch=\"\"></div>\n"
                + "<script>window.SLUICE_REPORT = " + docs + ";</script>\n<script>"
                + StreamingPage.asset("streaming.js") + "</script>\n</body></html>\n";
    }
}
