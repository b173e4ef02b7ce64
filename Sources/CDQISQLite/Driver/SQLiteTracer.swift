import CSQLite
import Foundation
import Logging

/// Logs what a connection runs, through SQLite's own trace hook (`sqlite3_trace_v2`): at `.debug` each
/// statement when it finishes, with its bound values written into the SQL (`sqlite3_expanded_sql`) and
/// how long it ran; at `.trace` also the number of rows it returned. A connection without a tracer
/// registers no hook, so tracing costs nothing when it is off.
package final class SQLiteTracer {
    package let logger: Logger
    /// Rows stepped so far per statement (only counted at `.trace`).
    private var rows: [OpaquePointer: Int] = [:]
    private let countsRows: Bool

    package init(logger: Logger) {
        self.logger = logger
        countsRows = logger.logLevel <= .trace
    }

    /// The trace events to ask SQLite for.
    package var mask: UInt32 {
        UInt32(SQLITE_TRACE_PROFILE) | (countsRows ? UInt32(SQLITE_TRACE_ROW) : 0)
    }

    package func row(_ statement: OpaquePointer) {
        rows[statement, default: 0] += 1
    }

    package func finished(_ statement: OpaquePointer, nanoseconds: Int64) {
        let sql: String
        if let expanded = sqlite3_expanded_sql(statement) {
            sql = String(cString: expanded)
            sqlite3_free(expanded)
        } else if let text = sqlite3_sql(statement) {
            sql = String(cString: text)
        } else {
            sql = "?"
        }
        let milliseconds = String(format: "%.3f", Double(nanoseconds) / 1_000_000)
        if countsRows {
            let count = rows.removeValue(forKey: statement) ?? 0
            logger.trace("\(sql)", metadata: ["duration_ms": "\(milliseconds)", "rows": "\(count)"])
        } else {
            logger.debug("\(sql)", metadata: ["duration_ms": "\(milliseconds)"])
        }
    }
}

/// The C callback SQLite calls; `context` is the connection's tracer, kept alive by the connection.
package let sqliteTraceCallback: @convention(c) (UInt32, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Int32 = {
    event, context, statement, detail in
    guard let context, let statement else { return 0 }
    let tracer = Unmanaged<SQLiteTracer>.fromOpaque(context).takeUnretainedValue()
    let handle = OpaquePointer(statement)
    if event == UInt32(SQLITE_TRACE_ROW) {
        tracer.row(handle)
    } else if event == UInt32(SQLITE_TRACE_PROFILE) {
        tracer.finished(handle, nanoseconds: detail?.load(as: Int64.self) ?? 0)
    }
    return 0
}

extension SQLiteConnection {
    /// Logs every statement this connection runs to `logger` (see ``PersistentStoreCoordinator/sqlLogger``
    /// for what each level shows), or stops logging with `nil`.
    public func trace(to logger: Logger?) {
        guard let logger, logger.logLevel <= .debug else {
            sqlite3_trace_v2(handle, 0, nil, nil)
            tracer = nil
            return
        }
        let tracer = SQLiteTracer(logger: logger)
        self.tracer = tracer
        sqlite3_trace_v2(handle, tracer.mask, sqliteTraceCallback, Unmanaged.passUnretained(tracer).toOpaque())
    }
}
