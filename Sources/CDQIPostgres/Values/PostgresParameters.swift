import CDQIPredicate
import Foundation

/// The parameters of one statement, encoded in PostgreSQL's binary format, with the type each is
/// sent as: the arrays `PQexecParams` and `PQexecPrepared` take.
///
/// Values are stored as Core Data stores them, so that they round-trip exactly as in the SQLite store:
/// integers as `int8`; doubles, decimals (their nearest double) and dates (seconds since 2001-01-01)
/// as `float8`; booleans as the `int8` 0 or 1; strings and URIs as `text`; data as `bytea`; UUIDs as
/// their 16 bytes (`bytea`); object references as their primary key; null as an untyped NULL.
struct PostgresParameters {
    /// The type OID of each parameter (0: let the server infer it, for NULL).
    private(set) var types: [UInt32] = []
    /// Each parameter's bytes, back to back.
    private var bytes: [UInt8] = []
    /// Each parameter's (offset, length) in `bytes`, or `nil` for NULL.
    private var ranges: [(offset: Int, length: Int)?] = []

    /// The parameters `$1`, `$2`, … in order.
    init(_ values: [StoredValue]) {
        types.reserveCapacity(values.count)
        ranges.reserveCapacity(values.count)
        for value in values { append(value) }
    }

    /// The position (1-based) of the first parameter longer than the protocol's 2 GB limit, if any.
    private(set) var oversizedParameter: Int?

    /// The number of parameters.
    var count: Int { types.count }

    /// The types as a cache key: statements prepared with other types are other statements.
    var signature: String { types.map(String.init).joined(separator: ",") }

    private mutating func append(_ value: StoredValue) {
        switch value {
        case .null: appendNull()
        case .integer(let integer): appendInt64(integer)
        case .double(let double): appendDouble(double)
        case .decimal(let decimal): appendDouble(StoredValue.decimalAsDouble(decimal))
        case .string(let string): append(Array(string.utf8), type: PostgresType.text)
        case .bool(let flag): appendInt64(flag ? 1 : 0)
        case .date(let seconds): appendDouble(seconds)
        case .data(let data): append([UInt8](data), type: PostgresType.bytea)
        case .uuid(let uuid): append(withUnsafeBytes(of: uuid.uuid) { [UInt8]($0) }, type: PostgresType.bytea)
        case .uri(let url): append(Array(url.absoluteString.utf8), type: PostgresType.text)
        case .objectID(let reference):
            if case .primaryKey(let key) = reference.identity { appendInt64(key) } else { appendNull() }
        }
    }

    private mutating func appendNull() {
        types.append(0)
        ranges.append(nil)
    }

    private mutating func appendInt64(_ value: Int64) {
        withUnsafeBytes(of: value.bigEndian) { append([UInt8]($0), type: PostgresType.int8) }
    }

    private mutating func appendDouble(_ value: Double) {
        withUnsafeBytes(of: value.bitPattern.bigEndian) { append([UInt8]($0), type: PostgresType.float8) }
    }

    private mutating func append(_ value: [UInt8], type: UInt32) {
        if value.count > Int(Int32.max), oversizedParameter == nil { oversizedParameter = types.count + 1 }
        types.append(type)
        ranges.append((bytes.count, value.count))
        bytes.append(contentsOf: value)
    }

    /// Calls `body` with libpq's arrays: types, value pointers (nil for NULL), lengths and formats
    /// (all binary). The pointers are valid during the call only.
    func withLibPQArrays<T>(
        _ body: (
            _ types: UnsafePointer<UInt32>?, _ values: UnsafePointer<UnsafePointer<CChar>?>?,
            _ lengths: UnsafePointer<Int32>?, _ formats: UnsafePointer<Int32>?
        ) throws -> T
    ) rethrows -> T {
        // A non-empty buffer, so that an empty parameter's pointer is not null (NULL means SQL NULL).
        let storage = bytes.isEmpty ? [0] : bytes
        return try storage.withUnsafeBufferPointer { buffer in
            let base = UnsafeRawPointer(buffer.baseAddress)
            var pointers: [UnsafePointer<CChar>?] = []
            var lengths: [Int32] = []
            pointers.reserveCapacity(ranges.count)
            lengths.reserveCapacity(ranges.count)
            for range in ranges {
                if let range, let base {
                    pointers.append((base + range.offset).assumingMemoryBound(to: CChar.self))
                    lengths.append(Int32(clamping: range.length))
                } else {
                    pointers.append(nil)
                    lengths.append(0)
                }
            }
            let formats = [Int32](repeating: 1, count: ranges.count)
            return try types.withUnsafeBufferPointer { types in
                try pointers.withUnsafeBufferPointer { pointers in
                    try lengths.withUnsafeBufferPointer { lengths in
                        try formats.withUnsafeBufferPointer { formats in
                            try body(types.baseAddress, pointers.baseAddress, lengths.baseAddress, formats.baseAddress)
                        }
                    }
                }
            }
        }
    }
}
