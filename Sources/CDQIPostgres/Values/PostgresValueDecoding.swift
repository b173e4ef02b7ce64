import CDQIPredicate
import Foundation

/// Reads one result value in PostgreSQL's binary format as a ``StoredValue``.
///
/// Integers (`int2`, `int4`, `int8`, `oid`) become integers; `float4` and `float8` doubles; `numeric`
/// a decimal (NaN and the infinities, which a decimal cannot hold, a double); text types (`text`,
/// `varchar`, `bpchar`, `char`, `name`, `json`, `jsonb`, `unknown`) strings; `bytea` data; `bool` a
/// boolean; `uuid` a UUID; `timestamp`, `timestamptz` and `date` a date (seconds since 2001-01-01 UTC;
/// a `timestamp` without time zone is read as UTC; `infinity` as an infinite number of seconds).
/// Any other type is refused with ``PostgresError/Kind/unsupportedValue``, naming the column: cast it
/// in the SQL (`::text`).
enum PostgresValueDecoding {
    /// Seconds from 2000-01-01 (PostgreSQL's epoch) to 2001-01-01 (Core Data's): 366 days.
    static let epochOffsetSeconds: Int64 = 366 * 86_400

    /// The type OIDs ``decode(_:type:column:)`` reads (every case of its switch).
    static let readableTypes: Set<UInt32> = [
        PostgresType.int8, PostgresType.int4, PostgresType.int2, PostgresType.oid, PostgresType.float8, PostgresType.float4,
        PostgresType.bool, PostgresType.text, PostgresType.varchar, PostgresType.bpchar, PostgresType.char, PostgresType.name,
        PostgresType.json, PostgresType.unknown, PostgresType.jsonb, PostgresType.bytea, PostgresType.uuid, PostgresType.timestamp,
        PostgresType.timestamptz, PostgresType.date, PostgresType.numeric,
    ]

    /// `column` names the column in an error only: its name is worked out only when the value is refused.
    /// Inlined into ``PostgresResult/value(row:column:)``, its one caller on the hot path: one call less per value read.
    @inline(__always)
    static func decode(
        _ bytes: UnsafeRawBufferPointer, type: UInt32, column: PostgresResultColumn
    ) throws(PostgresError) -> StoredValue {
        func wrongLength() -> PostgresError {
            PostgresError(
                kind: .unsupportedValue,
                message: "column '\(column.name)' (type OID \(type)) holds \(bytes.count) bytes, which do not decode")
        }
        switch type {
        case PostgresType.int8:
            guard bytes.count == 8 else { throw wrongLength() }
            return .integer(Int64(bigEndian: bytes.loadUnaligned(as: Int64.self)))
        case PostgresType.int4:
            guard bytes.count == 4 else { throw wrongLength() }
            return .integer(Int64(Int32(bigEndian: bytes.loadUnaligned(as: Int32.self))))
        case PostgresType.int2:
            guard bytes.count == 2 else { throw wrongLength() }
            return .integer(Int64(Int16(bigEndian: bytes.loadUnaligned(as: Int16.self))))
        case PostgresType.oid:
            guard bytes.count == 4 else { throw wrongLength() }
            return .integer(Int64(UInt32(bigEndian: bytes.loadUnaligned(as: UInt32.self))))
        case PostgresType.float8:
            guard bytes.count == 8 else { throw wrongLength() }
            return .double(Double(bitPattern: UInt64(bigEndian: bytes.loadUnaligned(as: UInt64.self))))
        case PostgresType.float4:
            guard bytes.count == 4 else { throw wrongLength() }
            return .double(Double(Float(bitPattern: UInt32(bigEndian: bytes.loadUnaligned(as: UInt32.self)))))
        case PostgresType.bool:
            guard bytes.count == 1 else { throw wrongLength() }
            return .bool(bytes[0] != 0)
        case PostgresType.text, PostgresType.varchar, PostgresType.bpchar, PostgresType.char, PostgresType.name,
            PostgresType.json, PostgresType.unknown:
            return .string(String(decoding: bytes, as: UTF8.self))
        case PostgresType.jsonb:
            // A version byte (1), then the JSON text.
            guard bytes.count >= 1 else { throw wrongLength() }
            return .string(String(decoding: UnsafeRawBufferPointer(rebasing: bytes.dropFirst()), as: UTF8.self))
        case PostgresType.bytea:
            return .data(Data(bytes))
        case PostgresType.uuid:
            guard bytes.count == 16 else { throw wrongLength() }
            return .uuid(UUID(uuid: bytes.loadUnaligned(as: uuid_t.self)))
        case PostgresType.timestamp, PostgresType.timestamptz:
            guard bytes.count == 8 else { throw wrongLength() }
            let microseconds = Int64(bigEndian: bytes.loadUnaligned(as: Int64.self))
            if microseconds == .max { return .date(secondsSinceReferenceDate: .infinity) }
            if microseconds == .min { return .date(secondsSinceReferenceDate: -.infinity) }
            // Whole seconds and the remainder apart, so that no step can overflow or lose microseconds.
            let (seconds, remainder) = microseconds.quotientAndRemainder(dividingBy: 1_000_000)
            return .date(secondsSinceReferenceDate: Double(seconds - epochOffsetSeconds) + Double(remainder) / 1e6)
        case PostgresType.date:
            guard bytes.count == 4 else { throw wrongLength() }
            let days = Int32(bigEndian: bytes.loadUnaligned(as: Int32.self))
            if days == .max { return .date(secondsSinceReferenceDate: .infinity) }
            if days == .min { return .date(secondsSinceReferenceDate: -.infinity) }
            return .date(secondsSinceReferenceDate: Double(Int64(days) * 86_400 - epochOffsetSeconds))
        case PostgresType.numeric:
            return try decodeNumeric(bytes, column: column)
        default:
            throw PostgresError(
                kind: .unsupportedValue,
                message: "column '\(column.name)' has type OID \(type), which CDQI does not read; cast it in the SQL (::text)")
        }
    }

    /// `numeric`: digit count, weight (of the first base-10000 digit), sign, display scale, then the
    /// base-10000 digits, each an `int16`.
    private static func decodeNumeric(
        _ bytes: UnsafeRawBufferPointer, column: PostgresResultColumn
    ) throws(PostgresError) -> StoredValue {
        func damaged() -> PostgresError {
            PostgresError(kind: .unsupportedValue, message: "column '\(column.name)' holds a numeric value that does not decode")
        }
        func int16(at offset: Int) -> Int {
            Int(Int16(bigEndian: bytes.loadUnaligned(fromByteOffset: offset, as: Int16.self)))
        }
        guard bytes.count >= 8 else { throw damaged() }
        let count = int16(at: 0)
        let weight = int16(at: 2)
        let sign = UInt16(bigEndian: bytes.loadUnaligned(fromByteOffset: 4, as: UInt16.self))
        switch sign {
        case 0xC000: return .decimal(.nan)
        case 0xD000: return .double(.infinity)
        case 0xF000: return .double(-.infinity)
        case 0x0000, 0x4000: break
        default: throw damaged()
        }
        guard count >= 0, bytes.count == 8 + 2 * count else { throw damaged() }
        var digits: [Int] = []
        for index in 0..<count {
            let digit = int16(at: 8 + 2 * index)
            guard (0..<10_000).contains(digit) else { throw damaged() }
            digits.append(digit)
        }
        // The decimal text: the groups of weight ≥ 0 before the point, the others after it.
        func group(_ digit: Int) -> String {
            let text = String(digit)
            return String(repeating: "0", count: 4 - text.count) + text
        }
        var integerPart = ""
        if weight >= 0 {
            for position in 0...weight {
                let digit = position < digits.count ? digits[position] : 0
                integerPart += integerPart.isEmpty ? String(digit) : group(digit)
            }
        }
        var fraction = ""
        if weight < -1 { fraction = String(repeating: "0000", count: -weight - 1) }
        if digits.count > weight + 1 {
            for position in max(0, weight + 1)..<digits.count { fraction += group(digits[position]) }
        }
        var text = (sign == 0x4000 ? "-" : "") + (integerPart.isEmpty ? "0" : integerPart)
        if !fraction.isEmpty { text += "." + fraction }
        guard let decimal = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) else { throw damaged() }
        return .decimal(decimal)
    }
}
