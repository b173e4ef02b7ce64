import CDQISQL
import CSQLite

extension SQLiteError {
    /// Reads the last error of a connection.
    package init(connection: OpaquePointer?, code: Int32, sql: String?) {
        let message =
            connection.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
            ?? String(cString: sqlite3_errstr(code))
        let extended = connection.map { sqlite3_extended_errcode($0) } ?? code
        self.init(code: code & 0xFF, extendedCode: extended, message: message, sql: sql)
    }
}
