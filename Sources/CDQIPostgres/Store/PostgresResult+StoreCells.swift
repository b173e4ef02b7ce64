import CDQIModel
import CDQIObjects
import CDQIPredicate
import Foundation

/// The store reads its rows in place, cell by cell (``CellRow``): the types its layout writes
/// (`bigint`, `double precision`, `text`, `bytea`) go straight to the attribute's value, any other
/// through the decoded value and the SQLite store's rules for it. A cell that does not decode reads as
/// `.null`, and ``cellError`` keeps the first such error for the store to throw.
extension PostgresResult: StoreCells {
    package func attributeValue(row: Int, column: Int, type: AttributeType) -> StoredValue {
        guard contains(row: row, column: column), let bytes = cell(row: row, column: column) else { return .null }
        switch columnTypes[column] {
        case PostgresType.int8 where bytes.count == 8:
            let integer = Int64(bigEndian: bytes.loadUnaligned(as: Int64.self))
            switch type {
            case .integer16, .integer32, .integer64: return .integer(integer)
            case .boolean: return .bool(integer != 0)
            default: break
            }
        case PostgresType.float8 where bytes.count == 8:
            let double = Double(bitPattern: UInt64(bigEndian: bytes.loadUnaligned(as: UInt64.self)))
            switch type {
            case .double, .float: return .double(double)
            case .date: return .date(secondsSinceReferenceDate: double)
            default: break
            }
        case PostgresType.text, PostgresType.varchar:
            if type == .string { return .string(String(decoding: bytes, as: UTF8.self)) }
        case PostgresType.bytea:
            if type == .binaryData || type == .transformable { return .data(Data(bytes)) }
        default: break
        }
        return CellRow.attributeValue(converting: decoded(bytes, column: column), type: type)
    }

    package func cellValue(row: Int, column: Int) -> StoredValue {
        guard contains(row: row, column: column), let bytes = cell(row: row, column: column) else { return .null }
        return decoded(bytes, column: column)
    }

    package func integer(row: Int, column: Int) -> Int64? {
        guard contains(row: row, column: column), let bytes = cell(row: row, column: column) else { return nil }
        if columnTypes[column] == PostgresType.int8, bytes.count == 8 {
            return Int64(bigEndian: bytes.loadUnaligned(as: Int64.self))
        }
        switch decoded(bytes, column: column) {
        case .integer(let integer): return integer
        case .bool(let bool): return bool ? 1 : 0
        case .double(let double): return Int64(exactly: double)
        default: return nil
        }
    }

    /// The error for the first column whose type CDQI does not read, if one is: checked before any row
    /// is read into objects, so that no object is filled with a value that could not be read.
    package func unreadableColumn() -> PostgresError? {
        guard let column = columnTypes.firstIndex(where: { !PostgresValueDecoding.readableTypes.contains($0) }) else { return nil }
        let name = PostgresResultColumn(result: handle, index: Int32(truncatingIfNeeded: column)).name
        return PostgresError(
            kind: .unsupportedValue,
            message: "column '\(name)' has type OID \(columnTypes[column]), which CDQI does not read; cast it in the SQL (::text)")
    }

    /// A cell's bytes decoded by its column's type; `.null`, with the error kept in ``cellError``, when
    /// they do not decode.
    private func decoded(_ bytes: UnsafeRawBufferPointer, column: Int) -> StoredValue {
        do {
            return try PostgresValueDecoding.decode(
                bytes, type: columnTypes[column], column: PostgresResultColumn(result: handle, index: Int32(truncatingIfNeeded: column)))
        } catch {
            if cellError == nil { cellError = error }
            return .null
        }
    }
}
