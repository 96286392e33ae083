package io.sluice.recovery.internal.wal;

class InMemoryWriteAheadLogTest extends WriteAheadLogContract {
    @Override
    WriteAheadLog newLog() {
        return new InMemoryWriteAheadLog();
    }
}
