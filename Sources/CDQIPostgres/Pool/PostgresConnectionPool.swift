import Foundation

/// At most `capacity` connections to one server, shared between threads: a caller takes one
/// (opening it if none is idle and fewer than `capacity` are open, otherwise waiting up to a timeout
/// for one to come back), uses it alone, and gives it back.
///
/// It is `Sendable`: the idle list and the counts are only touched while holding `condition`'s lock,
/// and a connection is used by the one caller that took it until it is given back. A connection
/// that comes back broken is closed, and one left in a transaction is rolled back first.
public final class PostgresConnectionPool: @unchecked Sendable {
    /// The server, database and schema of every connection.
    public let url: PostgresURL
    /// The most connections open at once.
    public let capacity: Int
    private let condition = NSCondition()
    /// Guarded by `condition`: connections not in use.
    private var idle: [PostgresConnection] = []
    /// Guarded by `condition`: connections open (in use or idle), plus those being opened.
    private var opened = 0
    /// Guarded by `condition`: whether ``close()`` was called.
    private var isClosed = false

    /// A pool of at most `capacity` (at least 1) connections to `url`; none is opened until needed.
    public init(url: PostgresURL, capacity: Int) {
        self.url = url
        self.capacity = max(1, capacity)
    }

    /// How many connections are open (in use or idle).
    public var openCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return opened
    }

    /// Runs `body` with a connection of the pool, and gives it back. Throws
    /// ``PostgresError/Kind/poolTimeout`` when none comes free within `timeout` seconds, and the
    /// connection's error when opening one fails.
    public func withConnection<T>(timeout: Double = 10, _ body: (PostgresConnection) throws -> T) throws -> T {
        let connection = try take(timeout: timeout)
        defer { give(connection) }
        return try body(connection)
    }

    /// Closes the idle connections; connections in use are closed when given back, and later
    /// ``withConnection(timeout:_:)`` calls throw.
    public func close() {
        condition.lock()
        isClosed = true
        let closing = idle
        idle.removeAll()
        opened -= closing.count
        condition.broadcast()
        condition.unlock()
        closing.forEach { $0.close() }
    }

    private func take(timeout: Double) throws(PostgresError) -> PostgresConnection {
        let deadline = Date(timeIntervalSinceNow: max(0, timeout))
        condition.lock()
        while true {
            if isClosed {
                condition.unlock()
                throw PostgresError(kind: .poolTimeout, message: "the connection pool for \(url) is closed")
            }
            if let connection = idle.popLast() {
                condition.unlock()
                return connection
            }
            if opened < capacity {
                opened += 1
                condition.unlock()
                do {
                    return try PostgresConnection(url: url)
                } catch {
                    condition.lock()
                    opened -= 1
                    condition.signal()
                    condition.unlock()
                    throw error
                }
            }
            if !condition.wait(until: deadline) {
                condition.unlock()
                throw PostgresError(
                    kind: .poolTimeout,
                    message: "no connection of the pool for \(url) came free within \(timeout) seconds "
                        + "(all \(capacity) are in use)")
            }
        }
    }

    private func give(_ connection: PostgresConnection) {
        if connection.isOpen && connection.isInTransaction { try? connection.execute("ROLLBACK") }
        let healthy = connection.isOpen && !connection.isInTransaction
        condition.lock()
        let keep = healthy && !isClosed
        if keep { idle.append(connection) } else { opened -= 1 }
        condition.signal()
        condition.unlock()
        if !keep { connection.close() }
    }
}
