import CDQIObjects
import Dispatch
import Foundation
import Logging
import Synchronization

/// Read-only connections to a store file in WAL mode, beside its one writer: fetches, counts,
/// dictionary fetches, faults and prefetches of different contexts run on different readers at the
/// same time, and never wait for a save (SQLite's WAL lets readers go on while the writer writes; each
/// statement reads the last state committed when it started).
///
/// Readers are opened on demand, up to `capacity`; a read that finds every reader busy waits for one
/// to be returned. It is `Sendable`: the free list and the counts live in `state`, only touched while
/// holding its lock, and a reader is used by the one caller that took it until it is put back.
package final class StoreReaderPool: @unchecked Sendable {
    /// The most readers open at once.
    let capacity: Int
    private let writer: SQLiteStore
    /// What the pool holds. A `Mutex` rather than a lock with a condition: every count, fetch and
    /// fault takes a reader and gives it back, and an uncontended `Mutex` costs a fraction of locking
    /// and unlocking `NSCondition` twice. Waiting for a reader goes through `readerReturned` instead.
    private let state = Mutex(State())
    /// Signalled once for each caller that registered in ``State/waiting`` and was taken off it by
    /// a reader returned or a place freed (a semaphore keeps a signal given before its waiter waits,
    /// so none is lost between unlocking `state` and waiting).
    private let readerReturned = DispatchSemaphore(value: 0)

    private struct State {
        /// Readers not in use, each with the logger setting (``logSQL(to:)``'s count) it traces with;
        /// a reader catches up when it is next taken.
        var free: [FreeReader] = []
        /// Readers open (in use or free), plus those being opened.
        var opened = 0
        /// The SQL logger readers trace to (``logSQL(to:)``) and how many times it was set.
        var logger: Logger?
        var loggerVersion = 0
        /// How many callers wait for a reader and have not been signalled yet.
        var waiting = 0

        /// Takes one waiting caller off the list; whether one was there (to be signalled).
        mutating func releaseWaiter() -> Bool {
            guard waiting > 0 else { return false }
            waiting -= 1
            return true
        }
    }

    /// A reader not in use and the logger setting it traces with. Handed from the caller that used it to
    /// the next one through `state` (unchecked: a reader is used by one caller at a time, as the pool's
    /// contract says).
    private struct FreeReader: @unchecked Sendable {
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
        let (taken, wake): (FreeReader?, Bool) = state.withLock { state in
            guard let taken = state.free.popLast() else { return (nil, false) }
            state.opened -= 1
            return (taken, state.releaseWaiter())
        }
        if wake { readerReturned.signal() }
        // A leased reader leaves the pool; it keeps the logger setting it has.
        if let taken { return StoreReaderLease(reader: taken.reader, loggerVersion: taken.loggerVersion, pool: self) }
        return StoreReaderLease(reader: try SQLiteStore(readerOf: writer), loggerVersion: 0, pool: self)
    }

    /// Takes back a leased reader: it joins the free readers when fewer than `capacity` are open, and is
    /// closed otherwise.
    func takeBack(_ reader: SQLiteStore, loggerVersion: Int) {
        let returned = FreeReader(reader: reader, loggerVersion: loggerVersion)
        let wake = state.withLock { state in
            guard state.opened < capacity else { return false }
            state.opened += 1
            state.free.append(returned)
            return state.releaseWaiter()
        }
        if wake { readerReturned.signal() }
    }

    /// Closes every reader not in use. The owner calls it before its writer closes, so that the writer
    /// is the file's last connection: closing it then checkpoints the WAL and removes the `-wal` and
    /// `-shm` files, which a read-only connection closing last cannot do.
    func closeFreeReaders() {
        state.withLock { state in
            state.opened -= state.free.count
            state.free.removeAll()
        }
    }

    /// Logs the SQL of every reader to `logger` (or stops, with `nil`), each from the next time it is taken.
    func logSQL(to logger: Logger?) {
        state.withLock { state in
            state.logger = logger
            state.loggerVersion += 1
        }
    }

    /// The number of readers open now.
    var openCount: Int {
        state.withLock { $0.opened }
    }

    /// A reader for one read, brought up to the current logger setting (it traces with the setting
    /// it carries).
    private func take() throws(StoreError) -> FreeReader {
        while true {
            let step: TakeStep = state.withLock { state in
                if let taken = state.free.popLast() {
                    // The logger is copied only for a reader that must catch up (a rare event).
                    guard taken.loggerVersion != state.loggerVersion else { return .taken(taken) }
                    return .catchUp(taken, state.logger, state.loggerVersion)
                }
                guard state.opened >= capacity else {
                    state.opened += 1
                    return .open(state.logger, state.loggerVersion)
                }
                state.waiting += 1
                return .wait
            }
            switch step {
            case .taken(let taken):
                return taken
            case .catchUp(let taken, let logger, let version):
                taken.reader.connection.trace(to: logger)
                return FreeReader(reader: taken.reader, loggerVersion: version)
            case .open(let logger, let version):
                do {
                    let reader = try SQLiteStore(readerOf: writer)
                    if version != 0 { reader.connection.trace(to: logger) }
                    return FreeReader(reader: reader, loggerVersion: version)
                } catch {
                    let wake = state.withLock { state in
                        state.opened -= 1
                        return state.releaseWaiter()
                    }
                    if wake { readerReturned.signal() }
                    throw error
                }
            case .wait:
                // Woken by a reader given back or a place freed; another caller may have taken it
                // first, in which case this one registers and waits again.
                readerReturned.wait()
            }
        }
    }

    /// What ``take()`` found under the lock.
    private enum TakeStep {
        case taken(FreeReader)
        case catchUp(FreeReader, Logger?, Int)
        case open(Logger?, Int)
        case wait
    }

    private func give(_ taken: FreeReader) {
        let wake = state.withLock { state in
            state.free.append(taken)
            return state.releaseWaiter()
        }
        if wake { readerReturned.signal() }
    }
}
