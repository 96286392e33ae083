package io.sluice.dstream.testing;

import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.Logger;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Property;

/** Collects what one logger logs at WARN and above while it is open, to check what a user would see in the log. */
public final class LogCapture implements AutoCloseable {
    private final List<String> warnings = new CopyOnWriteArrayList<>();
    private final Logger logger;
    private final AbstractAppender appender;

    public LogCapture(Class<?> loggerClass) {
        logger = (Logger) LogManager.getLogger(loggerClass);
        appender = new AbstractAppender("capture-" + UUID.randomUUID(), null, null, true, Property.EMPTY_ARRAY) {
            @Override
            public void append(LogEvent event) {
                if (event.getLevel().isMoreSpecificThan(Level.WARN)) {
                    warnings.add(event.getMessage().getFormattedMessage());
                }
            }
        };
        appender.start();
        logger.addAppender(appender);
    }

    /** The warnings logged so far that contain {@code text}. */
    public List<String> warningsWith(String text) {
        return warnings.stream().filter(w -> w.contains(text)).toList();
    }

    public List<String> warnings() {
        return List.copyOf(warnings);
    }

    @Override
    public void close() {
        logger.removeAppender(appender);
        appender.stop();
    }
}
