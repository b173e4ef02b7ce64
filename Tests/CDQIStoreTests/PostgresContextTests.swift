import CDQIModel
import CDQIPostgres
import CDQIPredicate
import CDQITestSupport
import Foundation
import Testing

@testable import CDQIObjects
@testable import CDQISQLite
@testable import CDQIStore

/// Contexts over a PostgreSQL store: the same objects, fetches, saves, faults and conflicts as over a
/// SQLite file, checked against values worked out by hand and against the randomized test's oracle.
@Suite(
    "Contexts on a PostgreSQL store",
    .enabled(if: ProcessInfo.processInfo.environment["CDQI_POSTGRES_URL"] != nil, "CDQI_POSTGRES_URL is not set"))
struct PostgresContextTests {
    /// A new schema's URL, and a connection to it for plain SQL; the schema is dropped by `body`'s end.
    static func withSchema(_ body: (PostgresURL, PostgresConnection) throws -> Void) throws {
        var url = try PostgresURL(ProcessInfo.processInfo.environment["CDQI_POSTGRES_URL"] ?? "")
        url.schema = "cdqi_ctx_" + UUID().uuidString.prefix(8).lowercased()
        let connection = try PostgresConnection(url: url)
        defer { try? connection.execute("DROP SCHEMA IF EXISTS \(PostgresConnection.quoteIdentifier(url.schema)) CASCADE") }
        try body(url, connection)
    }

    static func coordinator(_ model: ManagedObjectModel, _ url: PostgresURL) throws -> PersistentStoreCoordinator {
        PersistentStoreCoordinator(model: model, store: try PostgresStore(model: model, url: url, connections: 2))
    }

    /// Rows of a query, each value rendered as text (`NULL` for null).
    static func rows(_ connection: PostgresConnection, _ sql: String) throws -> [[String]] {
        let result = try connection.query(sql)
        return try (0..<result.rowCount).map { row in
            try (0..<result.columnCount).map { column in
                switch try result.value(row: row, column: column) {
                case .null: "NULL"
                case .integer(let value): String(value)
                case .string(let value): value
                case let other: "\(other)"
                }
            }
        }
    }

    @Test("random operations agree with the oracle in the context, the tables and a fresh coordinator", arguments: [1, 2, 3] as [UInt64])
    func randomOperations(seed: UInt64) throws {
        let model = try StoreTestSupport.fixtureModel("Company")
        try Self.withSchema { url, connection in
            let coordinator = try Self.coordinator(model, url)
            try ContextRandomizedTests.randomOperations(
                seed: seed, coordinator: coordinator,
                stored: {
                    var stored = ContextRandomizedTests.Graph()
                    for row in try Self.rows(connection, "SELECT \"ZNAME\" FROM \"ZDEPARTMENT\"") { stored.departments.insert(row[0]) }
                    for row in try Self.rows(
                        connection,
                        "SELECT e.\"ZFIRSTNAME\", e.\"ZSALARY\", d.\"ZNAME\" FROM \"ZEMPLOYEE\" e "
                            + "LEFT JOIN \"ZDEPARTMENT\" d ON d.\"Z_PK\" = e.\"ZDEPARTMENT\"")
                    {
                        stored.employees[row[0]] = .init(salary: Int(row[1]) ?? -1, department: row[2] == "NULL" ? nil : row[2])
                    }
                    #expect(
                        try Self.rows(
                            connection,
                            "SELECT COALESCE(MAX(\"Z_PK\"), 0) <= (SELECT \"Z_MAX\" FROM \"Z_PRIMARYKEY\" WHERE \"Z_NAME\" = 'Employee') "
                                + "AND COALESCE(MIN(\"Z_OPT\"), 1) >= 1 FROM \"ZEMPLOYEE\"") == [["bool(true)"]])
                    return stored
                },
                reopen: { try Self.coordinator(model, url) })
        }
    }

    @Test("saved objects come back through fetches, counts, dictionaries and faults of another coordinator")
    func roundTrip() throws {
        let model = try StoreTestSupport.fixtureModel("Company")
        try Self.withSchema { url, _ in
            let writer = ManagedObjectContext(coordinator: try Self.coordinator(model, url))
            let research = try ContextTestSupport.insert(writer, "Department", ["name": "Research", "budget": Decimal(string: "1.5")])
            let sales = try ContextTestSupport.insert(writer, "Department", ["name": "Sales"])
            let hired = Date(timeIntervalSinceReferenceDate: 86_400.5)
            _ = try ContextTestSupport.insert(
                writer, "Employee", ["firstName": "Ann", "lastName": "Berg", "salary": 300, "department": research, "hireDate": hired])
            _ = try ContextTestSupport.insert(writer, "Employee", ["firstName": "Bob", "lastName": "Adams", "salary": 200, "department": research])
            _ = try ContextTestSupport.insert(writer, "Employee", ["firstName": "Cy", "lastName": "Chen", "salary": 100, "department": sales])
            _ = try ContextTestSupport.insert(writer, "Employee", ["firstName": "Di", "lastName": "Diaz", "salary": 250])
            try writer.save()

            let reader = ManagedObjectContext(coordinator: try Self.coordinator(model, url))
            var request = FetchRequest(entityName: "Employee")
            request.predicate = try PredicateNode(format: "salary >= 200")
            request.sortDescriptors = [FetchSortDescriptor(keyPath: "lastName")]
            let rich = try reader.fetch(request)
            // Salaries 300 (Berg), 200 (Adams), 250 (Diaz): by last name Adams, Berg, Diaz.
            #expect(try rich.map { try $0.value(forKey: "firstName") as? String } == ["Bob", "Ann", "Di"])
            #expect(try reader.count(for: request) == 3)
            #expect(try rich[1].value(forKey: "hireDate") as? Date == hired)
            // Faults: Ann's department, then its employees (Ann and Bob).
            let department = try #require(try rich[1].value(forKey: "department") as? ManagedObject)
            #expect(try department.value(forKey: "name") as? String == "Research")
            #expect(try department.value(forKey: "budget") as? Decimal == Decimal(string: "1.5"))
            let members = try department.objects(forKey: "employees").map { try $0.value(forKey: "firstName") as? String }
            #expect(Set(members) == ["Ann", "Bob"])

            var grouped = FetchRequest(entityName: "Employee")
            grouped.propertiesToFetch = [
                "department.name",
                .expression(ExpressionDescription(name: "total", expression: try ExpressionNode(format: "sum:(salary)"), resultType: nil)),
            ]
            grouped.propertiesToGroupBy = ["department.name"]
            grouped.sortDescriptors = [FetchSortDescriptor(keyPath: "department.name")]
            let totals = try reader.fetchDictionaries(grouped)
            // No department: Di 250; Research: 300 + 200; Sales: 100 (NULL first when ascending).
            #expect(totals.count == 3)
            #expect(totals.map { $0["department.name"] } == [nil, .string("Research"), .string("Sales")])
            #expect(totals.map { $0["total"] } == [.integer(250), .integer(500), .integer(100)])

            // An update and a delete through the reader, seen by the writer's coordinator.
            try rich[0].setValue(210, forKey: "salary")
            try reader.delete(rich[2])
            try reader.save()
            let check = ManagedObjectContext(coordinator: try Self.coordinator(model, url))
            var all = FetchRequest(entityName: "Employee")
            all.sortDescriptors = [FetchSortDescriptor(keyPath: "salary", ascending: false)]
            let salaries = try check.fetch(all).map { try $0.value(forKey: "salary") as? Int32 }
            #expect(salaries == [300, 210, 100])
        }
    }

    @Test("every attribute type round-trips")
    func attributeTypes() throws {
        let model = try StoreTestSupport.fixtureModel("Company")
        try Self.withSchema { url, _ in
            let context = ManagedObjectContext(coordinator: try Self.coordinator(model, url))
            let uuid = try #require(UUID(uuidString: "0F1E2D3C-4B5A-6978-8796-A5B4C3D2E1F0"))
            let values: [String: Any?] = [
                "binary": Data([0, 1, 254, 255]), "boolean": true, "date": Date(timeIntervalSinceReferenceDate: -1.25),
                "decimal": Decimal(string: "12.75"), "double": 2.5, "float": Float(0.5), "integer16": Int16(-7),
                "integer32": Int32(70_000), "integer64": Int64.max, "string": "é ü 日本", "uri": URL(string: "https://example.com/a?b=c"),
                "uuid": uuid,
            ]
            _ = try ContextTestSupport.insert(context, "TestEntity", values)
            try context.save()
            let fresh = ManagedObjectContext(coordinator: try Self.coordinator(model, url))
            let object = try #require(try fresh.fetch(FetchRequest(entityName: "TestEntity")).first)
            #expect(try object.value(forKey: "binary") as? Data == Data([0, 1, 254, 255]))
            #expect(try object.value(forKey: "boolean") as? Bool == true)
            #expect(try object.value(forKey: "date") as? Date == Date(timeIntervalSinceReferenceDate: -1.25))
            #expect(try object.value(forKey: "decimal") as? Decimal == Decimal(string: "12.75"))
            #expect(try object.value(forKey: "double") as? Double == 2.5)
            #expect(try object.value(forKey: "float") as? Float == 0.5)
            #expect(try object.value(forKey: "integer16") as? Int16 == -7)
            #expect(try object.value(forKey: "integer32") as? Int32 == 70_000)
            #expect(try object.value(forKey: "integer64") as? Int64 == Int64.max)
            #expect(try object.value(forKey: "string") as? String == "é ü 日本")
            #expect(try object.value(forKey: "uri") as? URL == URL(string: "https://example.com/a?b=c"))
            #expect(try object.value(forKey: "uuid") as? UUID == uuid)
        }
    }

    @Test("a change made through another coordinator is a conflict, resolved by the merge policy")
    func conflicts() throws {
        let model = try StoreTestSupport.fixtureModel("Company")
        try Self.withSchema { url, _ in
            let setup = ManagedObjectContext(coordinator: try Self.coordinator(model, url))
            _ = try ContextTestSupport.insert(setup, "Employee", ["firstName": "Ann", "lastName": "Berg", "salary": 100])
            try setup.save()
            let first = ManagedObjectContext(coordinator: try Self.coordinator(model, url))
            let second = ManagedObjectContext(coordinator: try Self.coordinator(model, url))
            let mine = try #require(try first.fetch(FetchRequest(entityName: "Employee")).first)
            let theirs = try #require(try second.fetch(FetchRequest(entityName: "Employee")).first)
            try theirs.setValue(111, forKey: "salary")
            try second.save()

            try mine.setValue("Zorn", forKey: "lastName")
            #expect {
                try first.save()
            } throws: { error in
                guard case ContextError.mergeConflicts(let conflicts) = error else { return false }
                // Read at version 1; the other coordinator's save made it 2.
                return conflicts.count == 1 && conflicts[0].snapshotVersion == 1 && conflicts[0].storeVersion == 2
            }
            first.mergePolicy = .mergeByPropertyObjectTrump
            try first.save()
            let check = ManagedObjectContext(coordinator: try Self.coordinator(model, url))
            let merged = try #require(try check.fetch(FetchRequest(entityName: "Employee")).first)
            // The store's salary and this context's last name, at version 3.
            let salary = try merged.value(forKey: "salary") as? Int32
            #expect(salary == 111)
            #expect(try merged.value(forKey: "lastName") as? String == "Zorn")
            #expect(merged.snapshotVersion == 3)
        }
    }

    @Test("a schema holding a store of another model is refused, naming the differences")
    func refusesAnotherModel() throws {
        try Self.withSchema { url, _ in
            _ = try Self.coordinator(try StoreTestSupport.fixtureModel("Company"), url)
            #expect {
                _ = try Self.coordinator(try StoreTestSupport.fixtureModel("Developers"), url)
            } throws: { error in
                guard case StoreError.modelMismatch(_, let differences) = error else { return false }
                return differences.contains { $0.contains("Developer") }
            }
        }
    }

    @Test("batch updates and batch deletes run on PostgreSQL")
    func batchRequests() throws {
        let model = try StoreTestSupport.fixtureModel("Company")
        try Self.withSchema { url, _ in
            let context = ManagedObjectContext(coordinator: try Self.coordinator(model, url))
            let ann = try ContextTestSupport.insert(context, "Employee", ["firstName": "Ann", "lastName": "Berg", "salary": 100])
            _ = try ContextTestSupport.insert(context, "Employee", ["firstName": "Bob", "lastName": "Adams", "salary": 200])
            _ = try ContextTestSupport.insert(context, "Employee", ["firstName": "Cy", "lastName": "Chen", "salary": 300])
            for value in [1, 2, 3] as [Int64] { _ = try ContextTestSupport.insert(context, "TestEntity", ["integer64": value]) }
            try context.save()

            // Salaries below 250 doubled: Ann 100 → 200, Bob 200 → 400; Cy keeps 300.
            var update = BatchUpdateRequest(
                entityName: "Employee", predicate: try PredicateNode(format: "salary < 250"),
                propertiesToUpdate: ["salary": .expression(try ExpressionNode(format: "salary * 2"))])
            update.resultType = .objectIDs
            guard case .objectIDs(let changed) = try context.execute(update) else {
                Issue.record("no object IDs")
                return
            }
            #expect(changed.count == 2 && changed.contains(ann.objectID))
            let check = ManagedObjectContext(coordinator: try Self.coordinator(model, url))
            var bySalary = FetchRequest(entityName: "Employee")
            bySalary.sortDescriptors = [FetchSortDescriptor(keyPath: "firstName")]
            let employees = try check.fetch(bySalary)
            #expect(try employees.map { try $0.value(forKey: "salary") as? Int32 } == [200, 400, 300])
            // Each changed row's version grew by one.
            #expect(employees.map(\.rowVersion) == [2, 2, 1])

            // TestEntity has no relationship: its rows go by one DELETE.
            var delete = BatchDeleteRequest(fetchRequest: FetchRequest(entityName: "TestEntity", predicate: try PredicateNode(format: "integer64 >= 2")))
            delete.resultType = .count
            guard case .count(let deleted) = try context.execute(delete) else {
                Issue.record("no count")
                return
            }
            #expect(deleted == 2)
            #expect(try check.count(for: FetchRequest(entityName: "TestEntity")) == 1)

            // Employees have a Nullify rule (their department's employees): it runs on PostgreSQL too
            // (PostgresBatchDeleteTests holds every rule to hand-worked rows).
            var everyone = BatchDeleteRequest(fetchRequest: FetchRequest(entityName: "Employee"))
            everyone.resultType = .count
            #expect(try context.execute(everyone) == .count(3))
            #expect(try check.count(for: FetchRequest(entityName: "Employee")) == 0)
        }
    }
}
