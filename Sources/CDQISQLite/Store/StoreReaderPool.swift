import CDQIObjects
import Foundation
import Logging
import Synchronization

/// Read-only connections to a store file in WAL mode, beside its one writer: fetches, counts,
/// dictionary fetches, faults and prefetches of different contexts run on different readers at the
/// same time, and never wait for a save (SQLite's WAL lets readers go on while the writer writes; each
/// statement reads the last state committed when it started).
///
/// Readers are opened on demand, up to `capacity`; a read that finds every reader busy waits for one
/// to be returned. It is `Sendable`: the free list and the count are only touched while holding
/// `condition`'s lock, the last reader given back waits in `lastGiven` (an atomic slot), and a reader is
/// used by the one caller that took it until it is put back.
///
/// The slot is the fast path: a read that finds a reader there takes it with one atomic exchange, and
/// a reader given back goes there with one compare-and-exchange, without the lock (a context reading
/// alone always finds its own reader there). The lock is taken only when the slot is empty or taken,
/// or when someone waits for a reader.
package final class StoreReaderPool: @unchecked Sendable {
    /// The most readers open at once.
    let capacity: Int
    private let writer: SQLiteStore
    private let condition = NSCondition()
    /// The reader given back last, if no one took it since: `Unmanaged<PooledReader>`'s bits (holding one
    /// retain), or 0. A free reader is either here or in `free`, never both.
    private let lastGiven = Atomic<UInt>(0)
    /// How many callers wait for a reader. Changed only while holding `condition`'s lock; read without
    /// it by a reader given back to the slot, which then takes the lock to signal.
    private let waiting = Atomic<Int>(0)
    /// How many times ``logSQL(to:)`` set the logger: a reader whose ``PooledReader/loggerVersion``
    /// differs catches up when it is next taken. Changed only while holding `condition`'s lock.
    private let loggerVersion = Atomic<Int>(0)
    // The state below skips the run-time exclusivity check: every access holds `condition`'s lock, so
    // none overlaps another, and the checks cost more than the rest of taking and giving back a reader.
    /// Guarded by `condition`: readers not in use (besides the one in `lastGiven`).
    @exclusivity(unchecked) private var free: [PooledReader] = []
    /// Guarded by `condition`: readers open (in use or free), plus those being opened.
    @exclusivity(unchecked) private var opened = 0
    /// Guarded by `condition`: the SQL logger readers trace to (``logSQL(to:)``).
    @exclusivity(unchecked) private var logger: Logger?

    /// A reader of the pool and the logger setting it traces with; only its holder (the caller using it,
    /// or the pool while it is free) touches it.
    final class PooledReader {
        let reader: SQLiteStore
        var loggerVersion: Int

        init(reader: SQLiteStore, loggerVersion: Int) {
            self.reader = reader
            self.loggerVersion = loggerVersion
        }
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
        let slotted = takeLastGiven()
        let taken: PooledReader? = condition.withLock {
            guard let taken = slotted ?? free.popLast() else { return nil }
            opened -= 1
            if waiting.load(ordering: .relaxed) > 0 { condition.signal() }
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
            free.append(PooledReader(reader: reader, loggerVersion: loggerVersion))
            if waiting.load(ordering: .relaxed) > 0 { condition.signal() }
        }
    }

    /// Closes every reader not in use. The owner calls it before its writer closes, so that the writer
    /// is the file's last connection: closing it then checkpoints the WAL and removes the `-wal` and
    /// `-shm` files, which a read-only connection closing last cannot do.
    func closeFreeReaders() {
        let slotted = takeLastGiven()
        condition.withLock {
            opened -= free.count + (slotted == nil ? 0 : 1)
            free.removeAll()
        }
    }

    /// Logs the SQL of every reader to `logger` (or stops, with `nil`), each from the next time it is taken.
    func logSQL(to logger: Logger?) {
        condition.withLock {
            self.logger = logger
            loggerVersion.add(1, ordering: .releasing)
        }
    }

    /// The number of readers open now.
    var openCount: Int {
        condition.withLock { opened }
    }

    /// A reader for one read, brought up to the current logger setting (it traces with the setting
    /// it carries): the one in `lastGiven` if there is one, else one from `free`, else a new one, else
    /// the first given back after a wait.
    private func take() throws(StoreError) -> PooledReader {
        if let taken = takeLastGiven() { return caughtUp(taken) }
        condition.lock()
        while true {
            if let taken = free.popLast() ?? takeLastGiven() {
                condition.unlock()
                return caughtUp(taken)
            }
            if opened < capacity { break }
            // Say so before looking at the slot a last time: a reader given back to the slot after this
            // look sees the count and signals (under the lock, so not before this waits).
            waiting.add(1, ordering: .sequentiallyConsistent)
            if let taken = takeLastGiven() {
                waiting.subtract(1, ordering: .relaxed)
                condition.unlock()
                return caughtUp(taken)
            }
            condition.wait()
            waiting.subtract(1, ordering: .relaxed)
        }
        opened += 1
        condition.unlock()
        do {
            return caughtUp(PooledReader(reader: try SQLiteStore(readerOf: writer), loggerVersion: 0))
        } catch {
            condition.withLock {
                opened -= 1
                if waiting.load(ordering: .relaxed) > 0 { condition.signal() }
            }
            throw error
        }
    }

    /// Puts a reader back: into `lastGiven` if it is empty, else into `free`; either way a waiting
    /// caller is woken.
    private func give(_ taken: PooledReader) {
        let retained = Unmanaged.passRetained(taken)
        let bits = UInt(bitPattern: retained.toOpaque())
        if lastGiven.compareExchange(expected: 0, desired: bits, ordering: .sequentiallyConsistent).exchanged {
            // Pairs with take(): a caller that counted itself after this load looks at the slot again.
            if waiting.load(ordering: .sequentiallyConsistent) > 0 { condition.withLock { condition.signal() } }
            return
        }
        retained.release()
        condition.withLock {
            free.append(taken)
            if waiting.load(ordering: .relaxed) > 0 { condition.signal() }
        }
    }

    /// The reader in `lastGiven`, emptying the slot, or `nil`.
    private func takeLastGiven() -> PooledReader? {
        let bits = lastGiven.exchange(0, ordering: .sequentiallyConsistent)
        guard let pointer = UnsafeRawPointer(bitPattern: bits) else { return nil }
        return Unmanaged<PooledReader>.fromOpaque(pointer).takeRetainedValue()
    }

    /// `taken`, tracing with the current logger setting. The logger is read (under the lock) only for a
    /// reader that must catch up, a rare event.
    private func caughtUp(_ taken: PooledReader) -> PooledReader {
        guard taken.loggerVersion != loggerVersion.load(ordering: .acquiring) else { return taken }
        let (logger, version) = condition.withLock { (self.logger, loggerVersion.load(ordering: .relaxed)) }
        taken.reader.connection.trace(to: logger)
        taken.loggerVersion = version
        return taken
    }

    deinit {
        _ = takeLastGiven()
    }
}
