import CDQIObjects
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
package final class StoreReaderPool: @unchecked Sendable {
    /// The most readers open at once.
    let capacity: Int
    private let writer: SQLiteStore
    private let condition = NSCondition()
    // The state below skips the run-time exclusivity check: every access holds `condition`'s lock, so
    // none overlaps another, and the checks cost more than the rest of taking and giving back a reader
    // (every count, fetch and fault takes one).
    /// Guarded by `condition`: readers not in use, each with the logger setting (``logSQL(to:)``'s
    /// count) it traces with; a reader catches up when it is next taken.
    @exclusivity(unchecked) private var free: [FreeReader] = []
    /// Guarded by `condition`: readers open (in use or free), plus those being opened.
    @exclusivity(unchecked) private var opened = 0
    /// Guarded by `condition`: the SQL logger readers trace to (``logSQL(to:)``) and how many times it
    /// was set.
    @exclusivity(unchecked) private var logger: Logger?
    @exclusivity(unchecked) private var loggerVersion = 0
    /// Guarded by `condition`: how many callers wait for a reader (a reader given back signals only then).
    @exclusivity(unchecked) private var waiting = 0

    /// A reader not in use and the logger setting it traces with.
    private struct FreeReader {
        let reader: SQLiteStore
        let loggerVersion: Int
    }

    /// A pool of at most `capacity` (at least 1) readers of `writer`'s file.
    init(writer: SQLiteStore, capacity: Int) {
        self.writer = writer
        self.capacity = max(1, capacity)
    }

    /// Runs `body` with a reader taken from the pool (opened if none is free and fewer than
    /// `capacity` are open; otherwise waiting for one), and puts the reader back.
    func withReader<T>(_ body: (SQLiteStore) throws -> T) throws -> T {
        let taken = try take()
        defer { give(taken) }
        return try body(taken.reader)
    }

    /// ``withReader(_:)`` handing `body` an argument besides the reader, so that the caller's closure
    /// need not capture (and copy) it.
    func withReader<Argument, T>(_ argument: Argument, _ body: (SQLiteStore, Argument) throws -> T) throws -> T {
        let taken = try take()
        defer { give(taken) }
        return try body(taken.reader, argument)
    }

    /// A reader for one holder's sole use until the lease ends (a fetch cursor holds one for its life):
    /// a free reader, which leaves the pool meanwhile, or else a new connection outside it. A lease
    /// never waits and never counts against `capacity`, so that reads of the pool never wait for a lease
    /// to end: a cursor's context fetches while the cursor is open, on the same thread, and would wait
    /// forever if the cursor held the last reader.
    func lease() throws(StoreError) -> StoreReaderLease {
        let taken: FreeReader? = condition.withLock {
            guard let taken = free.popLast() else { return nil }
            opened -= 1
            if waiting > 0 { condition.signal() }
            return taken
        }
        // A leased reader leaves the pool; it keeps the logger setting it has.
        if let taken { return StoreReaderLease(reader: taken.reader, loggerVersion: taken.loggerVersion, pool: self) }
        return StoreReaderLease(reader: try SQLiteStore(readerOf: writer), loggerVersion: 0, pool: self)
    }

    /// Takes back a leased reader: it joins the free readers when fewer than `capacity` are open, and is
    /// closed otherwise.
    func takeBack(_ reader: SQLiteStore, loggerVersion: Int) {
        condition.withLock {
            guard opened < capacity else { return }
            opened += 1
            free.append(FreeReader(reader: reader, loggerVersion: loggerVersion))
            if waiting > 0 { condition.signal() }
        }
    }

    /// Closes every reader not in use. The owner calls it before its writer closes, so that the writer
    /// is the file's last connection: closing it then checkpoints the WAL and removes the `-wal` and
    /// `-shm` files, which a read-only connection closing last cannot do.
    func closeFreeReaders() {
        condition.withLock {
            opened -= free.count
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

    /// The number of readers open now.
    var openCount: Int {
        condition.withLock { opened }
    }

    /// A reader for one read, brought up to the current logger setting (it traces with the setting
    /// it carries).
    private func take() throws(StoreError) -> FreeReader {
        condition.lock()
        while free.isEmpty && opened >= capacity {
            waiting += 1
            condition.wait()
            waiting -= 1
        }
        if let taken = free.popLast() {
            // The logger is copied only for a reader that must catch up (a rare event).
            guard taken.loggerVersion != loggerVersion else {
                condition.unlock()
                return taken
            }
            let (logger, version) = (self.logger, loggerVersion)
            condition.unlock()
            taken.reader.connection.trace(to: logger)
            return FreeReader(reader: taken.reader, loggerVersion: version)
        }
        opened += 1
        let (logger, version) = (self.logger, loggerVersion)
        condition.unlock()
        do {
            let reader = try SQLiteStore(readerOf: writer)
            if version != 0 { reader.connection.trace(to: logger) }
            return FreeReader(reader: reader, loggerVersion: version)
        } catch {
            condition.withLock {
                opened -= 1
                if waiting > 0 { condition.signal() }
            }
            throw error
        }
    }

    private func give(_ taken: FreeReader) {
        condition.withLock {
            free.append(taken)
            if waiting > 0 { condition.signal() }
        }
    }
}
