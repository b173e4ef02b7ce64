import Foundation
import Logging

/// Read-only connections to a store file in WAL mode, beside its one writer: fetches, counts,
/// dictionary fetches, faults and prefetches of different contexts run on different readers at the
/// same time, and never wait for a save (SQLite's WAL lets readers go on while the writer writes; each
/// statement reads the last state committed when it started).
///
/// Readers are opened on demand, up to `capacity`; a read that finds every reader busy waits for one
/// to be returned. It is `Sendable`: the free list and the count are only touched while holding
/// `condition`'s lock, and a reader is used by the one caller that took it until it is put back.
final class StoreReaderPool: @unchecked Sendable {
    /// The most readers open at once.
    let capacity: Int
    private let writer: SQLiteStore
    private let condition = NSCondition()
    /// Guarded by `condition`: readers not in use.
    private var free: [SQLiteStore] = []
    /// Guarded by `condition`: readers open (in use or free), plus those being opened.
    private var opened = 0
    /// Guarded by `condition`: the SQL logger readers trace to (``logSQL(to:)``), how many times it was
    /// set, and the setting each open reader traces with: a reader catches up when it is next taken.
    private var logger: Logger?
    private var loggerVersion = 0
    private var readerLoggerVersions: [ObjectIdentifier: Int] = [:]

    /// A pool of at most `capacity` (at least 1) readers of `writer`'s file.
    init(writer: SQLiteStore, capacity: Int) {
        self.writer = writer
        self.capacity = max(1, capacity)
    }

    /// Runs `body` with a reader taken from the pool (opened if none is free and fewer than
    /// `capacity` are open; otherwise waiting for one), and puts the reader back.
    func withReader<T>(_ body: (SQLiteStore) throws -> T) throws -> T {
        let reader = try take()
        defer { give(reader) }
        return try body(reader)
    }

    /// A reader for one holder's sole use until the lease ends (a fetch cursor holds one for its life):
    /// a free reader, which leaves the pool meanwhile, or else a new connection outside it. A lease
    /// never waits and never counts against `capacity`, so that reads of the pool never wait for a lease
    /// to end: a cursor's context fetches while the cursor is open, on the same thread, and would wait
    /// forever if the cursor held the last reader.
    func lease() throws(StoreError) -> StoreReaderLease {
        let reader: SQLiteStore? = condition.withLock {
            guard let reader = free.popLast() else { return nil }
            opened -= 1
            condition.signal()
            return reader
        }
        if let reader { return StoreReaderLease(reader: reader, pool: self) }
        return StoreReaderLease(reader: try SQLiteStore(readerOf: writer), pool: self)
    }

    /// Takes back a leased reader: it joins the free readers when fewer than `capacity` are open, and is
    /// closed otherwise.
    func takeBack(_ reader: SQLiteStore) {
        condition.withLock {
            guard opened < capacity else { return }
            opened += 1
            free.append(reader)
            condition.signal()
        }
    }

    /// Closes every reader not in use. The owner calls it before its writer closes, so that the writer
    /// is the file's last connection: closing it then checkpoints the WAL and removes the `-wal` and
    /// `-shm` files, which a read-only connection closing last cannot do.
    func closeFreeReaders() {
        condition.withLock {
            opened -= free.count
            for reader in free { readerLoggerVersions[ObjectIdentifier(reader)] = nil }
            free.removeAll()
        }
    }

    /// Logs the SQL of every reader to `logger` (or stops, with `nil`), each from the next time it is taken.
    func logSQL(to logger: Logger?) {
        condition.withLock {
            self.logger = logger
            loggerVersion += 1
        }
    }

    /// Brings a reader just taken up to the current logger setting, if it changed since.
    private func catchUpLogging(_ reader: SQLiteStore, logger: Logger?, version: Int) {
        reader.connection.trace(to: logger)
        condition.withLock { readerLoggerVersions[ObjectIdentifier(reader)] = version }
    }

    /// The number of readers open now.
    var openCount: Int {
        condition.withLock { opened }
    }

    private func take() throws(StoreError) -> SQLiteStore {
        condition.lock()
        while free.isEmpty && opened >= capacity { condition.wait() }
        if let reader = free.popLast() {
            let stale = readerLoggerVersions[ObjectIdentifier(reader), default: 0] != loggerVersion
            let (logger, version) = (self.logger, loggerVersion)
            condition.unlock()
            if stale { catchUpLogging(reader, logger: logger, version: version) }
            return reader
        }
        opened += 1
        let (logger, version) = (self.logger, loggerVersion)
        condition.unlock()
        do {
            let reader = try SQLiteStore(readerOf: writer)
            if version != 0 { catchUpLogging(reader, logger: logger, version: version) }
            return reader
        } catch {
            condition.withLock {
                opened -= 1
                condition.signal()
            }
            throw error
        }
    }

    private func give(_ reader: SQLiteStore) {
        condition.withLock {
            free.append(reader)
            condition.signal()
        }
    }
}
