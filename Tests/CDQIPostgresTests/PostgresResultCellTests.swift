import CDQIModel
import CDQIPostgres
import CDQIPredicate
import Foundation
import Testing

@testable import CDQIObjects
@testable import CDQISQLite
@testable import CDQIStore

/// A result read cell by cell as the store reads rows into objects (``StoreCells``, ``CellRow``): each
/// column type of the layout straight to its attribute's value, other types through the decoded value,
/// NULL as `.null`, and a cell that does not decode as `.null` with the error kept for the store.
@Suite("PostgresResult read in place", .enabled(if: TestDatabase.isAvailable, "CDQI_POSTGRES_URL is not set"))
struct PostgresResultCellTests {
    @Test("the layout's column types read as their attributes' values")
    func layoutTypes() throws {
        let connection = try PostgresConnection(url: TestDatabase.url())
        let result = try connection.query(
            "SELECT 7::int8, 0::int8, 2.5::float8, 86400.5::float8, 'héllo'::text, '\\x00ff'::bytea, NULL::int8, ''::text, "
                + "'\\x0102030405060708090a0b0c0d0e0f10'::bytea")
        let row = CellRow(cells: result, row: 0)
        #expect(row.attributeValue(0, type: .integer64) == .integer(7))
        #expect(row.attributeValue(0, type: .integer16) == .integer(7))
        #expect(row.attributeValue(0, type: .boolean) == .bool(true))
        #expect(row.attributeValue(1, type: .boolean) == .bool(false))
        #expect(row.attributeValue(2, type: .double) == .double(2.5))
        #expect(row.attributeValue(2, type: .float) == .double(2.5))
        // Dates are seconds since 2001-01-01: 86,400.5 is 2001-01-02 00:00:00.5.
        #expect(row.attributeValue(3, type: .date) == .date(secondsSinceReferenceDate: 86_400.5))
        #expect(row.attributeValue(4, type: .string) == .string("héllo"))
        #expect(row.attributeValue(5, type: .binaryData) == .data(Data([0, 255])))
        #expect(row.attributeValue(6, type: .integer64) == .null)
        #expect(row.integer(6) == nil)
        #expect(row.attributeValue(7, type: .string) == .string(""))
        // A UUID is stored as its 16 bytes.
        let uuid = UUID(uuid: (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16))
        #expect(row.attributeValue(8, type: .uuid) == .uuid(uuid))
        // Integers converted as the SQLite store converts them: 7 as a double is 7.0; 2.5 as a decimal 2.5.
        #expect(row.attributeValue(0, type: .double) == .double(7))
        #expect(row.attributeValue(2, type: .decimal) == .decimal(Decimal(string: "2.5") ?? 0))
        #expect(row.int64(0) == 7 && row.holdsInteger(0) && !row.holdsInteger(2) && !row.holdsInteger(6))
        #expect(row.describeValue(4) == "'héllo' (text)")
        #expect(row.describeValue(6) == "NULL")
        #expect(result.cellError == nil)
    }

    @Test("other types read through their decoded value; a type CDQI does not read is kept as the error")
    func otherTypes() throws {
        let connection = try PostgresConnection(url: TestDatabase.url())
        let result = try connection.query("SELECT 42::int4, 'true'::bool, 'x'::varchar, '<a/>'::xml, 5::int2")
        result.tableName = "ZTHING"
        let row = CellRow(cells: result, row: 0)
        #expect(row.attributeValue(0, type: .integer32) == .integer(42))
        #expect(row.integer(0) == 42 && row.holdsInteger(0))
        #expect(row.attributeValue(1, type: .boolean) == .bool(true))
        #expect(row.integer(1) == 1)
        #expect(row.attributeValue(2, type: .string) == .string("x"))
        #expect(result.cellError == nil)
        // The store checks the column types before reading any row: column 3 (xml, OID 142) is refused.
        #expect(result.unreadableColumn()?.description.contains("'xml' has type OID 142") == true)
        #expect(try connection.query("SELECT 1::int8, 'a'::text, 2.5::float8, '\\x00'::bytea").unreadableColumn() == nil)
        // xml (OID 142) is not read: NULL, and the error names the column's type.
        #expect(row.attributeValue(3, type: .string) == .null)
        let error = try #require(result.cellError)
        #expect(error.kind == .unsupportedValue && error.description.contains("142"))
        // The first error is kept; reading goes on.
        #expect(row.attributeValue(4, type: .integer16) == .integer(5))
        #expect(result.cellError?.description == error.description)
        #expect(row.tableName(ofColumn: 0) == "ZTHING")
    }
}
