package io.sluice.dstream.internal.ui;

/**
 * A small JSON writer for the UI's endpoints and the run report: objects and arrays are opened and closed in
 * order, commas are placed by the writer. Strings are escaped so that the text is also safe inside an HTML
 * {@code <script>} element ({@code <}, {@code >} and {@code &} as Unicode escapes).
 */
final class Json {
    private final StringBuilder out = new StringBuilder();
    private final java.util.ArrayDeque<Character> open = new java.util.ArrayDeque<>(); // closing brackets due
    private boolean needsComma;

    Json object() {
        comma();
        out.append('{');
        open.push('}');
        needsComma = false;
        return this;
    }

    Json end() {
        out.append(open.pop());
        needsComma = true;
        return this;
    }

    Json array() {
        comma();
        out.append('[');
        open.push(']');
        needsComma = false;
        return this;
    }

    /** The key of the next value in an object. */
    Json key(String key) {
        comma();
        string(key);
        out.append(':');
        needsComma = false;
        return this;
    }

    Json value(String value) {
        comma();
        if (value == null) {
            out.append("null");
        } else {
            string(value);
        }
        needsComma = true;
        return this;
    }

    Json value(long value) {
        comma();
        out.append(value);
        needsComma = true;
        return this;
    }

    Json value(double value) {
        comma();
        out.append(Double.isFinite(value) ? String.valueOf(Math.round(value * 1000) / 1000.0) : "null");
        needsComma = true;
        return this;
    }

    Json value(boolean value) {
        comma();
        out.append(value);
        needsComma = true;
        return this;
    }

    /** Already-written JSON (an endpoint's document embedded in another). */
    Json raw(String json) {
        comma();
        out.append(json);
        needsComma = true;
        return this;
    }

    Json field(String key, String value) {
        return key(key).value(value);
    }

    Json field(String key, long value) {
        return key(key).value(value);
    }

    Json field(String key, double value) {
        return key(key).value(value);
    }

    Json field(String key, boolean value) {
        return key(key).value(value);
    }

    @Override
    public String toString() {
        return out.toString();
    }

    private void comma() {
        if (needsComma) {
            out.append(',');
            needsComma = false;
        }
    }

    private void string(String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '<', '>', '&' -> out.append(String.format("\\u%04x", (int) c));
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }
}
