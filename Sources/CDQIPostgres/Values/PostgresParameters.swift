import CDQIPredicate
import Foundation

/// The parameters of one statement, encoded in PostgreSQL's binary format, with the type each is
/// sent as: the arrays `PQexecParams` and `PQexecPrepared` take.
///
/// Values are stored as Core Data stores them, so that they round-trip exactly as in the SQLite store:
/// integers as `int8`; doubles, decimals (their nearest double) and dates (seconds since 2001-01-01)
/// as `float8`; booleans as the `int8` 0 or 1; strings and URIs as `text`; data as `bytea`; UUIDs as
/// their 16 bytes (`bytea`); object references as their primary key; null as an untyped NULL.
///
/// A connection keeps one and ``encode(_:)``s each statement's parameters into it, so that its
/// buffers (the 8-byte values in one array of words, every other value's bytes back to back in one
/// array, and libpq's type, pointer, length and format arrays) keep their capacity from one statement
/// to the next instead of being allocated anew.
struct PostgresParameters {
    /// The type OID of each parameter (0: let the server infer it, for NULL).
    private(set) var types: [UInt32] = []
    /// Each parameter's bytes, back to back, after one leading byte that keeps the buffer's address
    /// non-null, so that an empty value's pointer is never null (a null pointer means SQL NULL).
    private var bytes: [UInt8] = [0]
    /// The 8-byte values (`int8`, `float8`), each already in network byte order.
    private var words: [UInt64] = []
    /// Where each parameter is: its offset in `bytes` (0 or more), -1 for NULL, or `-2 - i` for
    /// `words[i]`.
    private var offsets: [Int] = []
    /// Each parameter's length in bytes (0 for NULL).
    private var lengths: [Int32] = []
    /// Each parameter's format: 1 (binary) for all; never shorter than `types`.
    private var formats: [Int32] = []
    /// The pointers libpq reads, filled from `offsets` when they are handed over.
    private var pointers: [UnsafePointer<CChar>?] = []

    /// No parameters; ``encode(_:)`` fills it.
    init() {}

    /// The position (1-based) of the first parameter longer than the protocol's 2 GB limit, if any.
    private(set) var oversizedParameter: Int?

    /// The number of parameters.
    var count: Int { types.count }

    /// Replaces the parameters with `values`, `$1`, `$2`, … in order, keeping the buffers' capacity.
    mutating func encode(_ values: [StoredValue]) {
        types.removeAll(keepingCapacity: true)
        offsets.removeAll(keepingCapacity: true)
        lengths.removeAll(keepingCapacity: true)
        bytes.removeSubrange(1...)
        words.removeAll(keepingCapacity: true)
        oversizedParameter = nil
        types.reserveCapacity(values.count)
        offsets.reserveCapacity(values.count)
        lengths.reserveCapacity(values.count)
        for value in values { append(value) }
        while formats.count < types.count { formats.append(1) }
    }

    private mutating func append(_ value: StoredValue) {
        switch value {
        case .null: appendNull()
        case .integer(let integer): appendInt64(integer)
        case .double(let double): appendDouble(double)
        case .decimal(let decimal): appendDouble(StoredValue.decimalAsDouble(decimal))
        case .string(let string): appendText(string)
        case .bool(let flag): appendInt64(flag ? 1 : 0)
        case .date(let seconds): appendDouble(seconds)
        case .data(let data):
            data.withUnsafeBytes { raw in appendBytes(raw, type: PostgresType.bytea) }
        case .uuid(let uuid):
            withUnsafeBytes(of: uuid.uuid) { raw in appendBytes(raw, type: PostgresType.bytea) }
        case .uri(let url): appendText(url.absoluteString)
        case .objectID(let reference):
            if case .primaryKey(let key) = reference.identity { appendInt64(key) } else { appendNull() }
        }
    }

    private mutating func appendNull() {
        types.append(0)
        offsets.append(-1)
        lengths.append(0)
    }

    private mutating func appendInt64(_ value: Int64) {
        appendWord(UInt64(bitPattern: value), type: PostgresType.int8)
    }

    private mutating func appendDouble(_ value: Double) {
        appendWord(value.bitPattern, type: PostgresType.float8)
    }

    /// Appends an 8-byte value as one word: cheaper than copying its bytes into `bytes`.
    private mutating func appendWord(_ value: UInt64, type: UInt32) {
        types.append(type)
        offsets.append(-2 - words.count)
        lengths.append(8)
        words.append(value.bigEndian)
    }

    private mutating func appendText(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in appendBytes(UnsafeRawBufferPointer(utf8), type: PostgresType.text) }
    }

    /// Appends one value's bytes; a value over the protocol's limit is noted (and not copied): the
    /// statement is refused before it is sent.
    private mutating func appendBytes(_ value: UnsafeRawBufferPointer, type: UInt32) {
        types.append(type)
        guard value.count <= Int(Int32.max) else {
            if oversizedParameter == nil { oversizedParameter = types.count }
            offsets.append(-1)
            lengths.append(0)
            return
        }
        offsets.append(bytes.count)
        lengths.append(Int32(truncatingIfNeeded: value.count))
        value.withMemoryRebound(to: UInt8.self) { value in bytes.append(contentsOf: value) }
    }

    /// Calls `body` with libpq's arrays: types, value pointers (nil for NULL), lengths and formats
    /// (all binary). The pointers are valid during the call only.
    mutating func withLibPQArrays<T>(
        _ body: (
            _ types: UnsafePointer<UInt32>?, _ values: UnsafePointer<UnsafePointer<CChar>?>?,
            _ lengths: UnsafePointer<Int32>?, _ formats: UnsafePointer<Int32>?
        ) throws -> T
    ) rethrows -> T {
        try bytes.withUnsafeBytes { bytes in
            try words.withUnsafeBytes { words in
                pointers.removeAll(keepingCapacity: true)
                pointers.reserveCapacity(offsets.count)
                for offset in offsets {
                    let address: UnsafeRawPointer? =
                        switch offset {
                        case 0...: bytes.baseAddress.map { $0 + offset }
                        case -1: nil
                        default: words.baseAddress.map { $0 + 8 * (-2 - offset) }
                        }
                    pointers.append(address?.assumingMemoryBound(to: CChar.self))
                }
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
}
