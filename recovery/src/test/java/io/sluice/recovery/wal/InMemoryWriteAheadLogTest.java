package io.sluice.recovery.wal;

class InMemoryWriteAheadLogTest extends WriteAheadLogContract {
    @Override
    WriteAheadLog newLog() {
        return new InMemoryWriteAheadLog();
    }
}
