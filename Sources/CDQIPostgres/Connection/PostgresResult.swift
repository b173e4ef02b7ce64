import CDQIPredicate
import CLibPQ
import Foundation

/// The rows a statement returned (all of them, in memory), or what a command did: libpq's `PGresult`,
/// freed with this object. Values are in PostgreSQL's binary format and read as ``StoredValue``s.
///
/// Not `Sendable`: read it on the thread that ran the statement, or copy the values out.
public final class PostgresResult {
    let handle: OpaquePointer
    /// Each column's type OID (`PQftype`), read once: a row's values are decoded by their column's type.
    let columnTypes: [UInt32]
    /// The first error a cell read without throwing met (``StoreCells``); the store throws it once the
    /// rows are read.
    package internal(set) var cellError: PostgresError?
    /// The table the rows come from, named in messages about them (set by the store that reads them).
    package var tableName: String?

    init(handle: OpaquePointer) {
        self.handle = handle
        rowCount = Int(PQntuples(handle))
        columnCount = Int(PQnfields(handle))
        columnTypes = (0..<PQnfields(handle)).map { PQftype(handle, $0) }
    }

    deinit {
        PQclear(handle)
    }

    /// The number of rows.
    public let rowCount: Int

    /// The number of columns.
    public let columnCount: Int

    /// The column names, in order.
    public var columnNames: [String] {
        (0..<PQnfields(handle)).map { column in PQfname(handle, column).map { String(cString: $0) } ?? "" }
    }

    /// The number of rows an `INSERT`, `UPDATE`, `DELETE`, `MERGE`, `SELECT` or `COPY` touched
    /// (`PQcmdTuples`); 0 for other commands.
    public var affectedRowCount: Int {
        // libpq's decimal digits, or an empty string; read in place rather than through a String.
        guard var digit = PQcmdTuples(handle), digit.pointee != 0 else { return 0 }
        var count = 0
        while digit.pointee != 0 {
            let value = Int(digit.pointee) - Int(UInt8(ascii: "0"))
            guard (0...9).contains(value) else { return 0 }
            let (times10, overflow) = count.multipliedReportingOverflow(by: 10)
            let (sum, overflowSum) = times10.addingReportingOverflow(value)
            guard !overflow, !overflowSum else { return 0 }
            count = sum
            digit += 1
        }
        return count
    }

    /// Whether the value at `row`, `column` (both 0-based) is NULL; `true` outside the result.
    public func isNull(row: Int, column: Int) -> Bool {
        guard contains(row: row, column: column) else { return true }
        return PQgetisnull(handle, Int32(row), Int32(column)) != 0
    }

    /// The value at `row`, `column` (both 0-based). Throws ``PostgresError/Kind/unsupportedValue`` for
    /// a position outside the result or a type CDQI does not read (``StoredValue`` lists the types read).
    public func value(row: Int, column: Int) throws(PostgresError) -> StoredValue {
        guard contains(row: row, column: column) else {
            throw PostgresError(
                kind: .unsupportedValue,
                message: "no value at row \(row), column \(column): the result has \(rowCount) rows of \(columnCount) columns")
        }
        guard let bytes = cell(row: row, column: column) else { return .null }
        return try PostgresValueDecoding.decode(
            bytes, type: columnTypes[column], column: PostgresResultColumn(result: handle, index: Int32(truncatingIfNeeded: column)))
    }

    /// The bytes of the value at `row`, `column`, which must be inside the result; `nil` for NULL.
    @inline(__always)
    func cell(row: Int, column: Int) -> UnsafeRawBufferPointer? {
        // Both fit: libpq's counts are Int32s.
        let (r, c) = (Int32(truncatingIfNeeded: row), Int32(truncatingIfNeeded: column))
        let length = Int(PQgetlength(handle, r, c))
        // A NULL's length is 0, so only an empty value needs asking whether it is NULL.
        if length == 0, PQgetisnull(handle, r, c) != 0 { return nil }
        guard let start = PQgetvalue(handle, r, c) else { return nil }
        return UnsafeRawBufferPointer(start: start, count: length)
    }

    /// Row `row` (0-based), every column.
    public func row(_ row: Int) throws(PostgresError) -> [StoredValue] {
        var values: [StoredValue] = []
        values.reserveCapacity(columnCount)
        for column in 0..<columnCount { values.append(try value(row: row, column: column)) }
        return values
    }

    /// Every row, every column.
    public func rows() throws(PostgresError) -> [[StoredValue]] {
        var rows: [[StoredValue]] = []
        rows.reserveCapacity(rowCount)
        for index in 0..<rowCount { rows.append(try row(index)) }
        return rows
    }

    /// The integer at `row`, `column`, or `nil` for NULL; throws when the value is not an integer.
    public func int64(row: Int, column: Int) throws(PostgresError) -> Int64? {
        switch try value(row: row, column: column) {
        case .null: return nil
        case .integer(let integer): return integer
        case let other:
            throw PostgresError(kind: .unsupportedValue, message: "column '\(columnName(Int32(column)))' holds \(other), not an integer")
        }
    }

    /// The text at `row`, `column`, or `nil` for NULL; throws when the value is not text.
    public func string(row: Int, column: Int) throws(PostgresError) -> String? {
        switch try value(row: row, column: column) {
        case .null: return nil
        case .string(let string): return string
        case let other:
            throw PostgresError(kind: .unsupportedValue, message: "column '\(columnName(Int32(column)))' holds \(other), not text")
        }
    }

    /// The bytes at `row`, `column`, or `nil` for NULL; throws when the value is not `bytea`.
    public func data(row: Int, column: Int) throws(PostgresError) -> Data? {
        switch try value(row: row, column: column) {
        case .null: return nil
        case .data(let data): return data
        case let other:
            throw PostgresError(kind: .unsupportedValue, message: "column '\(columnName(Int32(column)))' holds \(other), not bytes")
        }
    }

    func contains(row: Int, column: Int) -> Bool {
        row >= 0 && row < rowCount && column >= 0 && column < columnCount
    }

    private func columnName(_ column: Int32) -> String {
        PostgresResultColumn(result: handle, index: column).name
    }
}
