import CDQIModel
import CDQIPredicate
import CDQIStore
import Foundation
import Synchronization
import Testing

@testable import CDQIPostgres

@Suite("PostgresStoreLayout")
struct PostgresStoreLayoutTests {
    /// Department (1) ⇄ Employee (2) ← Manager (3); Employee ⇄ Project (4) many-to-many; Project's
    /// title unique. `extraProjectAttribute` makes another model (a different Project hash).
    static func companyModel(extraProjectAttribute: Bool = false) -> ManagedObjectModel {
        func relationship(_ name: String, _ destination: String, _ inverse: String, toMany: Bool) -> RelationshipDescription {
            var relationship = RelationshipDescription(
                name: name, destinationEntityName: destination, inverseName: inverse, inverseEntityName: destination,
                isToMany: toMany)
            relationship.isOptional = true
            return relationship
        }
        var department = EntityDescription(name: "Department")
        department.attributes = [AttributeDescription(name: "name", type: .string, isOptional: true)]
        department.relationships = [relationship("employees", "Employee", "department", toMany: true)]
        var employee = EntityDescription(name: "Employee")
        employee.attributes = [
            AttributeDescription(name: "name", type: .string, isOptional: true),
            AttributeDescription(name: "salary", type: .double, isOptional: true),
            AttributeDescription(name: "hired", type: .date, isOptional: true),
            AttributeDescription(name: "active", type: .boolean, isOptional: true),
            AttributeDescription(name: "photo", type: .binaryData, isOptional: true),
            AttributeDescription(name: "badge", type: .uuid, isOptional: true),
        ]
        employee.relationships = [
            relationship("department", "Department", "employees", toMany: false),
            relationship("projects", "Project", "members", toMany: true),
        ]
        var manager = EntityDescription(name: "Manager", parentEntityName: "Employee")
        manager.attributes = [AttributeDescription(name: "level", type: .integer16, isOptional: true)]
        var project = EntityDescription(name: "Project")
        project.attributes = [AttributeDescription(name: "title", type: .string, isOptional: true)]
        if extraProjectAttribute {
            project.attributes.append(AttributeDescription(name: "budget", type: .decimal, isOptional: true))
        }
        project.relationships = [relationship("members", "Employee", "projects", toMany: true)]
        project.uniquenessConstraints = [UniquenessConstraint(properties: ["title"])]
        return ManagedObjectModel(entities: [department, employee, manager, project])
    }

    // MARK: Without a server

    @Test("SQLite column types map to PostgreSQL types that keep the SQLite store's values")
    func columnTypes() {
        #expect(PostgresStoreLayout.columnType(forSQLiteType: "INTEGER") == "bigint")
        #expect(PostgresStoreLayout.columnType(forSQLiteType: "TIMESTAMP") == "double precision")
        #expect(PostgresStoreLayout.columnType(forSQLiteType: "FLOAT") == "double precision")
        #expect(PostgresStoreLayout.columnType(forSQLiteType: "DECIMAL") == "double precision")
        #expect(PostgresStoreLayout.columnType(forSQLiteType: "VARCHAR") == "text")
        #expect(PostgresStoreLayout.columnType(forSQLiteType: "BLOB") == "bytea")
    }

    @Test("a table or column name longer than 63 bytes is refused, naming it")
    func identifierTooLong() {
        var entity = EntityDescription(name: "Thing")
        let long = String(repeating: "a", count: 63)
        entity.attributes = [AttributeDescription(name: long, type: .string, isOptional: true)]
        let layout = PostgresStoreLayout(model: ManagedObjectModel(entities: [entity]), schemaName: "s")
        // The column is Z + the upper-cased name: 64 bytes.
        #expect(throws: PostgresStoreError.identifierTooLong("Z" + long.uppercased())) { try layout.createStatements() }
    }

    @Test("index terms: the column quoted, SQLite's BINARY collation as \"C\", the direction kept")
    func indexTerms() {
        #expect(PostgresStoreLayout.indexTerm("ZDEPARTMENT") == #""ZDEPARTMENT""#)
        #expect(PostgresStoreLayout.indexTerm("ZNAME COLLATE BINARY DESC") == #""ZNAME" COLLATE "C" DESC"#)
        #expect(PostgresStoreLayout.indexTerm("ZNAME COLLATE BINARY ASC") == #""ZNAME" COLLATE "C" ASC"#)
    }

    @Test("an index name over 63 bytes keeps its first 54 and gains a hash; distinct names stay distinct")
    func longIndexNames() {
        #expect(PostgresStoreLayout.indexName("ZEMPLOYEE_ZDEPARTMENT_INDEX") == "ZEMPLOYEE_ZDEPARTMENT_INDEX")
        let stem = "Z_Employee_UNIQUE_" + String(repeating: "x", count: 50)
        let first = PostgresStoreLayout.indexName(stem + "_firstName")
        let second = PostgresStoreLayout.indexName(stem + "_lastName")
        #expect(first.utf8.count == 63)
        #expect(first.hasPrefix(String(stem.prefix(54)) + "_"))
        #expect(first != second)
        // A name of exactly 63 bytes is kept whole.
        let exact = String(repeating: "i", count: 63)
        #expect(PostgresStoreLayout.indexName(exact) == exact)
    }

    @Test("the create statements quote Core Data's names and qualify tables by the schema")
    func createStatements() throws {
        let layout = PostgresStoreLayout(model: Self.companyModel(), schemaName: "sales")
        let statements = try layout.createStatements()
        #expect(
            statements.contains(
                #"CREATE TABLE "sales"."ZDEPARTMENT" ("Z_PK" bigint PRIMARY KEY, "Z_ENT" bigint, "Z_OPT" bigint, "ZNAME" text)"#))
        #expect(
            statements.contains(
                #"CREATE TABLE "sales"."Z_2PROJECTS" ("Z_2MEMBERS" bigint, "Z_4PROJECTS" bigint, PRIMARY KEY ("Z_2MEMBERS", "Z_4PROJECTS"))"#))
        #expect(
            statements.contains(
                #"CREATE UNIQUE INDEX "Z_Project_UNIQUE_title" ON "sales"."ZPROJECT" ("ZTITLE" COLLATE "C" ASC)"#))
    }

    // MARK: With a server

    @Test(
        "creating the store gives Core Data's tables, columns, indexes and bookkeeping rows",
        .enabled(if: TestDatabase.isAvailable, "CDQI_POSTGRES_URL is not set"))
    func creation() throws {
        try TestDatabase.withScratchSchema { connection, schema in
            let layout = PostgresStoreLayout(model: Self.companyModel(), schemaName: schema)
            let metadata = try layout.open(connection)

            let columns = try connection.query(
                "SELECT table_name::text, column_name::text, data_type::text FROM information_schema.columns "
                    + "WHERE table_schema = $1", [.string(schema)])
            var found: Set<[String]> = []
            for row in try columns.rows() {
                found.insert(row.map { if case .string(let text) = $0 { text } else { "?" } })
            }
            let expected: Set<[String]> = [
                ["Z_PRIMARYKEY", "Z_ENT", "bigint"], ["Z_PRIMARYKEY", "Z_NAME", "text"],
                ["Z_PRIMARYKEY", "Z_SUPER", "bigint"], ["Z_PRIMARYKEY", "Z_MAX", "bigint"],
                ["Z_METADATA", "Z_VERSION", "bigint"], ["Z_METADATA", "Z_UUID", "text"], ["Z_METADATA", "Z_PLIST", "bytea"],
                ["Z_MODELCACHE", "Z_CONTENT", "bytea"],
                ["ZDEPARTMENT", "Z_PK", "bigint"], ["ZDEPARTMENT", "Z_ENT", "bigint"], ["ZDEPARTMENT", "Z_OPT", "bigint"],
                ["ZDEPARTMENT", "ZNAME", "text"],
                ["ZEMPLOYEE", "Z_PK", "bigint"], ["ZEMPLOYEE", "Z_ENT", "bigint"], ["ZEMPLOYEE", "Z_OPT", "bigint"],
                ["ZEMPLOYEE", "ZNAME", "text"], ["ZEMPLOYEE", "ZSALARY", "double precision"],
                ["ZEMPLOYEE", "ZHIRED", "double precision"], ["ZEMPLOYEE", "ZACTIVE", "bigint"],
                ["ZEMPLOYEE", "ZPHOTO", "bytea"], ["ZEMPLOYEE", "ZBADGE", "bytea"], ["ZEMPLOYEE", "ZDEPARTMENT", "bigint"],
                ["ZEMPLOYEE", "ZLEVEL", "bigint"],
                ["ZPROJECT", "Z_PK", "bigint"], ["ZPROJECT", "Z_ENT", "bigint"], ["ZPROJECT", "Z_OPT", "bigint"],
                ["ZPROJECT", "ZTITLE", "text"],
                ["Z_2PROJECTS", "Z_2MEMBERS", "bigint"], ["Z_2PROJECTS", "Z_4PROJECTS", "bigint"],
            ]
            #expect(found == expected)

            let indexes = try connection.query(
                "SELECT indexname::text FROM pg_indexes WHERE schemaname = $1", [.string(schema)])
            var indexNames: Set<String> = []
            for row in 0..<indexes.rowCount { indexNames.insert(try indexes.string(row: row, column: 0) ?? "") }
            #expect(
                indexNames == [
                    "Z_PRIMARYKEY_pkey", "Z_METADATA_pkey", "ZDEPARTMENT_pkey", "ZEMPLOYEE_pkey", "ZPROJECT_pkey",
                    "Z_2PROJECTS_pkey", "ZEMPLOYEE_ZDEPARTMENT_INDEX", "ZEMPLOYEE_Z_ENT_INDEX", "Z_2PROJECTS_Z_4PROJECTS_INDEX",
                    "Z_Project_UNIQUE_title",
                ])

            let entities = try connection.query(
                #"SELECT "Z_ENT", "Z_NAME", "Z_SUPER", "Z_MAX" FROM "Z_PRIMARYKEY" ORDER BY "Z_ENT""#
            ).rows()
            #expect(
                entities == [
                    [.integer(1), .string("Department"), .integer(0), .integer(0)],
                    [.integer(2), .string("Employee"), .integer(0), .integer(0)],
                    [.integer(3), .string("Manager"), .integer(2), .integer(0)],
                    [.integer(4), .string("Project"), .integer(0), .integer(0)],
                ])

            let stored = try connection.query(#"SELECT "Z_UUID", "Z_PLIST" FROM "Z_METADATA" WHERE "Z_VERSION" = 1"#)
            #expect(try stored.string(row: 0, column: 0) == metadata.uuid)
            let plist = try #require(try stored.data(row: 0, column: 1))
            let dictionary = try #require(try PropertyListSerialization.propertyList(from: plist, format: nil) as? [String: Any])
            #expect(dictionary["NSStoreType"] as? String == "PostgreSQL")
            let hashes = try #require(dictionary["NSStoreModelVersionHashes"] as? [String: Data])
            #expect(Set(hashes.keys) == ["Department", "Employee", "Manager", "Project"])
            #expect(hashes.values.allSatisfy { $0.count == 32 })

            // The model, as Core Data keeps it: one Z_MODELCACHE row that decodes to the same version hashes.
            let cache = try connection.query(#"SELECT "Z_CONTENT" FROM "Z_MODELCACHE""#)
            #expect(cache.rowCount == 1)
            let carried = try ManagedObjectModel(modelCache: [UInt8](try #require(try cache.data(row: 0, column: 0))))
            #expect(ModelVersionHashes(model: carried).entityHashes == hashes)

            // The unique index is a real one: a second project of the same title is refused.
            try connection.query(#"INSERT INTO "ZPROJECT" ("Z_PK", "Z_ENT", "Z_OPT", "ZTITLE") VALUES (1, 4, 1, $1)"#, [.string("Apollo")])
            #expect {
                try connection.query(#"INSERT INTO "ZPROJECT" ("Z_PK", "Z_ENT", "Z_OPT", "ZTITLE") VALUES (2, 4, 1, $1)"#, [.string("Apollo")])
            } throws: { error in
                (error as? PostgresError)?.kind == .uniqueViolation
            }
        }
    }

    @Test(
        "opening the store again changes nothing and returns its metadata",
        .enabled(if: TestDatabase.isAvailable, "CDQI_POSTGRES_URL is not set"))
    func secondOpenIsANoOp() throws {
        try TestDatabase.withScratchSchema { connection, schema in
            let layout = PostgresStoreLayout(model: Self.companyModel(), schemaName: schema)
            let first = try layout.open(connection)
            _ = try layout.allocateKeys(connection, rootEntityNumber: 2, count: 5)
            let second = try layout.open(connection)
            #expect(second == first)
            #expect(try connection.query(#"SELECT count(*)::bigint FROM "Z_PRIMARYKEY""#).value(row: 0, column: 0) == .integer(4))
            #expect(try connection.query(#"SELECT count(*)::bigint FROM "Z_METADATA""#).value(row: 0, column: 0) == .integer(1))
            // The keys taken before the second open are still taken.
            #expect(try layout.allocateKeys(connection, rootEntityNumber: 2, count: 1) == 6...6)
        }
    }

    @Test(
        "a store written for another model is refused, and left as it was",
        .enabled(if: TestDatabase.isAvailable, "CDQI_POSTGRES_URL is not set"))
    func otherModelRefused() throws {
        try TestDatabase.withScratchSchema { connection, schema in
            _ = try PostgresStoreLayout(model: Self.companyModel(), schemaName: schema).open(connection)
            let other = PostgresStoreLayout(model: Self.companyModel(extraProjectAttribute: true), schemaName: schema)
            #expect(
                throws: PostgresStoreError.modelMismatch(
                    schema: schema,
                    differences: ["entity 'Project' differs: property 'budget' is in the model but not in the store (no column ZBUDGET)"]
                )
            ) {
                try other.open(connection)
            }
            // The store's side: a model without Project's title has a column too many.
            var fewer = Self.companyModel()
            if let index = fewer.entities.firstIndex(where: { $0.name == "Project" }) {
                fewer.entities[index].attributes = []
                fewer.entities[index].uniquenessConstraints = []
            }
            #expect(
                throws: PostgresStoreError.modelMismatch(
                    schema: schema,
                    differences: ["entity 'Project' differs: the store has column ZTITLE, which no property of the model has"]
                )
            ) {
                try PostgresStoreLayout(model: fewer, schemaName: schema).open(connection)
            }
            let columns = try connection.query(
                "SELECT count(*)::bigint FROM information_schema.columns WHERE table_schema = $1 AND table_name = 'ZPROJECT'",
                [.string(schema)])
            #expect(try columns.value(row: 0, column: 0) == .integer(4))
        }
    }

    @Test(
        "a schema holding other tables is not taken for a store",
        .enabled(if: TestDatabase.isAvailable, "CDQI_POSTGRES_URL is not set"))
    func notACoreDataStore() throws {
        try TestDatabase.withScratchSchema { connection, schema in
            try connection.execute("CREATE TABLE invoices (id bigint)")
            let layout = PostgresStoreLayout(model: Self.companyModel(), schemaName: schema)
            #expect(
                throws: PostgresStoreError.notACoreDataStore(
                    schema: schema, reason: "it has tables but no Z_METADATA and Z_PRIMARYKEY")
            ) { try layout.open(connection) }
        }
    }

    @Test(
        "four threads creating one new store at once create it once; their keys never collide",
        .enabled(if: TestDatabase.isAvailable, "CDQI_POSTGRES_URL is not set"))
    func concurrentCreationAndKeys() throws {
        try TestDatabase.withScratchSchema { _, schema in
            // The scratch schema exists but is empty: each thread's open finds it empty or created.
            let url = try TestDatabase.url(schema: schema)
            let layout = PostgresStoreLayout(model: Self.companyModel(), schemaName: schema)
            let uuids = Mutex<[String]>([])
            let keys = Mutex<[Int64]>([])
            let failures = Mutex<[String]>([])
            DispatchQueue.concurrentPerform(iterations: 4) { thread in
                do {
                    let connection = try PostgresConnection(url: url)
                    let metadata = try layout.open(connection)
                    uuids.withLock { $0.append(metadata.uuid) }
                    var mine: [Int64] = []
                    for round in 0..<40 {
                        // 1, 2 or 3 keys at a time, some inside a transaction with other work.
                        let count = (thread + round) % 3 + 1
                        let range = try connection.transaction {
                            try layout.allocateKeys(connection, rootEntityNumber: 2, count: count)
                        }
                        mine.append(contentsOf: range)
                    }
                    keys.withLock { $0.append(contentsOf: mine) }
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
            #expect(failures.withLock { $0 } == [])
            let allUUIDs = uuids.withLock { $0 }
            #expect(allUUIDs.count == 4)
            #expect(Set(allUUIDs).count == 1)
            // Each thread takes 40 rounds of (thread + round) % 3 + 1 keys: rounds cycle 1, 2, 3 from a
            // different start, 13 full cycles (78 keys) plus one round: 1+78, 2+78... thread 0: 79,
            // thread 1: 80, thread 2: 81, thread 3 (like thread 0): 79. In all 319 keys, 1 through 319.
            let allKeys = keys.withLock { $0 }
            #expect(allKeys.count == 319)
            #expect(Set(allKeys) == Set(1...319))
        }
    }

    @Test(
        "allocating keys for an entity with no Z_PRIMARYKEY row is a typed error",
        .enabled(if: TestDatabase.isAvailable, "CDQI_POSTGRES_URL is not set"))
    func keysOfUnknownEntity() throws {
        try TestDatabase.withScratchSchema { connection, schema in
            let layout = PostgresStoreLayout(model: Self.companyModel(), schemaName: schema)
            _ = try layout.open(connection)
            #expect(
                throws: PostgresStoreError.damagedStore(
                    schema: schema, reason: "entity 9 has no Z_PRIMARYKEY row with a Z_MAX")
            ) {
                try layout.allocateKeys(connection, rootEntityNumber: 9, count: 1)
            }
            #expect(try layout.allocateKeys(connection, rootEntityNumber: 1, count: 3) == 1...3)
        }
    }
}
