import CDQIModel
import CDQIStore
import Foundation
import Testing

/// The layout computed from a corpus model equals the layout Apple's Core Data gave the store that
/// model wrote: entity numbers, tables, columns (in order) and index names.
@Suite("Store layout against Apple-written stores", .enabled(if: StoreTestSupport.corpus != nil, StoreTestSupport.corpusAbsent))
struct CorpusSchemaTests {
    private func rows(_ connection: SQLiteConnection, _ sql: String) throws -> [[String]] {
        let statement = try connection.prepareUncached(sql)
        var result: [[String]] = []
        while try statement.step() {
            result.append((0..<statement.columnCount).map { statement.string($0) })
        }
        return result
    }

    @Test("entity numbers, tables, columns and indexes match", arguments: CorpusVersionHashTests.pairs)
    func layoutMatches(pair: CorpusVersionHashTests.Pair) throws {
        try pair.withCopiedStore { path, model in try check(path, model) }
    }

    private func check(_ path: URL, _ model: ManagedObjectModel) throws {
        let connection = try SQLiteConnection(path: path.path)
        let schema = StoreSchema(model: model)

        // A migrated store keeps an entity's old name (its renaming identifier) in Z_PRIMARYKEY.
        let primaryKeys = try rows(connection, "SELECT Z_ENT, Z_NAME, Z_SUPER FROM Z_PRIMARYKEY WHERE Z_ENT < 16000 ORDER BY Z_ENT")
        #expect(
            primaryKeys
                == schema.entities.map { mapping in
                    let entity = model.entity(named: mapping.name)
                    let storedName = primaryKeys.first { $0[0] == "\(mapping.number)" }?[1]
                    let name = storedName == entity?.renamingIdentifier ? storedName ?? mapping.name : mapping.name
                    return ["\(mapping.number)", name, "\(mapping.superNumber)"]
                })

        let storeTables = Set(
            try rows(
                connection,
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'Z%' AND name NOT IN ('Z_PRIMARYKEY', 'Z_METADATA', 'Z_MODELCACHE')"
            ).map { $0[0] })
        #expect(storeTables == Set(schema.tables.map(\.name) + schema.joinTables.map(\.name)))

        for table in schema.tables where storeTables.contains(table.name) {
            let columns = try rows(connection, "SELECT name FROM pragma_table_info('\(table.name)')").map { $0[0] }
            #expect(columns == ["Z_PK", "Z_ENT", "Z_OPT"] + table.columns.map(\.name), "table \(table.name)")
        }
        for join in schema.joinTables where storeTables.contains(join.name) {
            let columns = try rows(connection, "SELECT name FROM pragma_table_info('\(join.name)')").map { $0[0] }
            #expect(columns == [join.sourceColumn, join.destinationColumn] + (join.orderColumn.map { [$0] } ?? []), "join table \(join.name)")
        }
        let storeIndexes = Set(
            try rows(
                connection,
                "SELECT name FROM sqlite_master WHERE type = 'index' AND name NOT LIKE 'sqlite_autoindex%' AND tbl_name LIKE 'Z%'"
            ).map { $0[0] })
        // Migrated stores keep the indexes of earlier versions too, so every computed index must be there.
        let missing = Set(schema.indexes.map(\.name)).subtracting(storeIndexes)
        #expect(missing.isEmpty, "indexes not in the store: \(missing.sorted())")

        // The generated DDL is, statement for statement, what Core Data wrote.
        let storeSQL = Set(try rows(connection, "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL").map { $0[0] })
        for statement in StoreSchema.bookkeepingStatements where !statement.contains("MODELCACHE") {
            #expect(storeSQL.contains(statement), "\(statement)")
        }
        for statement in schema.createStatements {
            #expect(storeSQL.contains(statement), "not in the store: \(statement)")
        }
    }
}
