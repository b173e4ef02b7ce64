import CDQIObjects
import Foundation

extension SQLiteStore {
    /// How long opening a store waits, in all, for other connections' locks: another process creating
    /// the store, switching it to WAL or committing a write. Every step of an open is short, so only a
    /// stuck connection (or a machine under very heavy load) comes near it.
    static let otherConnectionsWaitLimit: Duration = .seconds(60)

    /// Runs `open` until it does not fail for a lock another connection holds (`SQLITE_BUSY`, after
    /// the connection's own busy timeout), waiting a little longer after each failure, for at most
    /// `limit` in all; then throws ``StoreError/locked(path:seconds:)`` naming the store.
    ///
    /// `open` must be safe to run again after failing: it reads, or writes in one transaction that a
    /// failure rolls back. This is how a process that opens a store another process is creating waits
    /// for the creator and then opens the creator's store, whatever the machine's load.
    static func waitingForOtherConnections<T>(
        path: String, limit: Duration = otherConnectionsWaitLimit, pause firstPause: Duration = .milliseconds(10),
        _ open: () throws -> T
    ) throws -> T {
        let clock = ContinuousClock()
        let start = clock.now
        var pause = firstPause
        while true {
            do {
                return try open()
            } catch let error where isBusy(error) {
                let waited = clock.now - start
                guard waited + pause <= limit else {
                    throw StoreError.locked(path: path, seconds: Int(waited.components.seconds))
                }
                Thread.sleep(forTimeInterval: Double(pause.components.attoseconds) / 1e18 + Double(pause.components.seconds))
                pause = min(pause * 2, .milliseconds(500))
            }
        }
    }

    /// Whether `error` is SQLite's `SQLITE_BUSY` (any extended code), bare or in a store error.
    static func isBusy(_ error: any Error) -> Bool {
        switch error {
        case let error as SQLiteError: error.code == 5
        case StoreError.sqlite(let error): error.code == 5
        default: false
        }
    }
}
