import CLibPQBench
import Foundation

/// The hand-written baseline's libpq access: the C API with as little in between as a careful programmer
/// would keep: one connection, statements prepared once under a name, parameters and results in binary,
/// one buffer of parameter bytes reused from call to call.
public final class RawLibPQ {
    let connection: OpaquePointer

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Connects with libpq's keywords (`host`, `port`, `user`, `password`, `dbname`, `sslmode`, …).
    public init(parameters: [(String, String)]) throws {
        let keywords = parameters.map { strdup($0.0) }
        let values = parameters.map { strdup($0.1) }
        defer {
            keywords.forEach { free($0) }
            values.forEach { free($0) }
        }
        let keywordArray = keywords.map { UnsafePointer($0) } + [nil]
        let valueArray = values.map { UnsafePointer($0) } + [nil]
        let handle = keywordArray.withUnsafeBufferPointer { k in
            valueArray.withUnsafeBufferPointer { v in PQconnectdbParams(k.baseAddress, v.baseAddress, 0) }
        }
        guard let handle, PQstatus(handle) == CONNECTION_OK else {
            let reason = handle.flatMap { PQerrorMessage($0).map { String(cString: $0) } } ?? "no memory"
            if let handle { PQfinish(handle) }
            throw Failure(description: "cannot connect: \(reason)")
        }
        connection = handle
    }

    deinit { PQfinish(connection) }

    /// Runs SQL without parameters (`BEGIN`, `COMMIT`).
    public func exec(_ sql: String) throws {
        try check(PQexec(connection, sql), sql).clear()
    }

    /// Prepares `sql` under `name`, its parameters of the types `types` (OIDs).
    public func prepare(_ name: String, _ sql: String, types: [UInt32]) throws {
        try check(PQprepare(connection, name, sql, Int32(types.count), types), sql).clear()
    }

    /// Runs the statement prepared as `name` with `parameters`' values; results in binary.
    public func execute(_ name: String, _ parameters: inout Parameters) throws -> Result {
        let result = parameters.withArrays { count, values, lengths, formats in
            PQexecPrepared(connection, name, count, values, lengths, formats, 1)
        }
        return try check(result, name)
    }

    private func check(_ result: OpaquePointer?, _ what: String) throws -> Result {
        guard let result else { throw Failure(description: "\(String(cString: PQerrorMessage(connection))) in \(what)") }
        let status = PQresultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
            let message = String(cString: PQresultErrorMessage(result))
            PQclear(result)
            throw Failure(description: "\(message) in \(what)")
        }
        return Result(handle: result)
    }

    /// A result; the caller clears it (``clear()``) when done.
    public struct Result {
        public let handle: OpaquePointer

        public func clear() { PQclear(handle) }
        public var rowCount: Int32 { PQntuples(handle) }
        public var affectedRows: Int { Int(String(cString: PQcmdTuples(handle))) ?? 0 }
        public func isNull(_ row: Int32, _ column: Int32) -> Bool { PQgetisnull(handle, row, column) != 0 }

        /// An 8-byte value (libpq gives every value of a valid row and column, an empty one for NULL).
        private func eightBytes(_ row: Int32, _ column: Int32) -> UInt64 {
            guard PQgetlength(handle, row, column) == 8, let bytes = UnsafeRawPointer(PQgetvalue(handle, row, column)) else {
                return 0
            }
            return UInt64(bigEndian: bytes.loadUnaligned(as: UInt64.self))
        }

        public func int64(_ row: Int32, _ column: Int32) -> Int64 {
            Int64(bitPattern: eightBytes(row, column))
        }

        public func double(_ row: Int32, _ column: Int32) -> Double {
            Double(bitPattern: eightBytes(row, column))
        }

        public func string(_ row: Int32, _ column: Int32) -> String {
            let length = Int(PQgetlength(handle, row, column))
            return String(decoding: UnsafeRawBufferPointer(start: PQgetvalue(handle, row, column), count: length), as: UTF8.self)
        }

        /// Row `row` of a result selecting ``ItemRecord/columns``.
        public func item(_ row: Int32) -> ItemRecord {
            ItemRecord(
                id: int64(row, 0), entity: int64(row, 1), version: int64(row, 2), active: int64(row, 3) != 0,
                code: string(row, 4), createdAt: double(row, 5), price: double(row, 6), quantity: int64(row, 7),
                rank: Int16(truncatingIfNeeded: int64(row, 8)), score: Int32(truncatingIfNeeded: int64(row, 9)),
                title: string(row, 10), category: isNull(row, 11) ? nil : int64(row, 11))
        }
    }

    /// Parameter values in binary, appended in order, their storage kept from one statement to the next.
    public struct Parameters {
        private var bytes: [UInt8] = []
        private var offsets: [Int] = []
        private var lengths: [Int32] = []
        private var formats: [Int32] = []
        private var pointers: [UnsafePointer<CChar>?] = []

        public init() {
            bytes.reserveCapacity(256)
        }

        public mutating func removeAll() {
            bytes.removeAll(keepingCapacity: true)
            offsets.removeAll(keepingCapacity: true)
            lengths.removeAll(keepingCapacity: true)
            formats.removeAll(keepingCapacity: true)
        }

        public mutating func append(_ value: Int64) {
            withUnsafeBytes(of: value.bigEndian) { append(bytes: $0) }
        }

        public mutating func append(_ value: Double) {
            withUnsafeBytes(of: value.bitPattern.bigEndian) { append(bytes: $0) }
        }

        public mutating func append(_ value: String) {
            var value = value
            value.withUTF8 { append(bytes: UnsafeRawBufferPointer($0)) }
        }

        private mutating func append(bytes value: UnsafeRawBufferPointer) {
            offsets.append(bytes.count)
            lengths.append(Int32(value.count))
            formats.append(1)
            bytes.append(contentsOf: value)
        }

        mutating func withArrays<T>(
            _ body: (Int32, UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<Int32>?, UnsafePointer<Int32>?) -> T
        ) -> T {
            if bytes.isEmpty { bytes.append(0) }
            return bytes.withUnsafeBufferPointer { buffer in
                let base = UnsafeRawPointer(buffer.baseAddress)
                pointers.removeAll(keepingCapacity: true)
                for offset in offsets { pointers.append(base.map { ($0 + offset).assumingMemoryBound(to: CChar.self) }) }
                return pointers.withUnsafeBufferPointer { p in
                    lengths.withUnsafeBufferPointer { l in
                        formats.withUnsafeBufferPointer { f in body(Int32(offsets.count), p.baseAddress, l.baseAddress, f.baseAddress) }
                    }
                }
            }
        }
    }
}

/// PostgreSQL's type OIDs the baseline binds.
enum PostgresOID {
    static let int8: UInt32 = 20
    static let text: UInt32 = 25
    static let float8: UInt32 = 701
}
