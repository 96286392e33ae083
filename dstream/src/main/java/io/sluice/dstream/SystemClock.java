package io.sluice.dstream;

/** The wall clock. */
final class SystemClock implements Clock {
    static final SystemClock INSTANCE = new SystemClock();

    private SystemClock() {
    }

    @Override
    public long millis() {
        return System.currentTimeMillis();
    }

    @Override
    public long waitUntil(long target) throws InterruptedException {
        long now = millis();
        while (now < target) {
            Thread.sleep(Math.min(target - now, 100));
            now = millis();
        }
        return now;
    }
}
