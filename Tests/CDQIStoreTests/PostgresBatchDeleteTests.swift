import CDQIModel
import CDQIPostgres
import CDQIPredicate
import Foundation
import Testing

@testable import CDQIObjects
@testable import CDQISQLite
@testable import CDQIStore

/// Batch deletes with delete rules on a PostgreSQL store (issue 22): the scenarios of the SQLite
/// store's ``BatchRequestTests`` (the same model and seed), with the rows each must leave worked out
/// by hand; `Z_OPT` bumps counted per deleted row, as Core Data's triggers bump them (also held to the
/// SQLite store here); refusals that change nothing; what contexts see; and two stores deleting
/// overlapping sets at once, each on its own connections.
@Suite(
    "Batch deletes with delete rules on PostgreSQL",
    .serialized,
    .enabled(if: ProcessInfo.processInfo.environment["CDQI_POSTGRES_URL"] != nil, "CDQI_POSTGRES_URL is not set"))
struct PostgresBatchDeleteTests {
    /// The model of ``BatchRequestTests/modelXML(employees:departmentOptional:members:)``.
    static func model(_ xml: String) throws -> ManagedObjectModel {
        let (folder, cleanUp) = try StoreTestSupport.temporaryFolder()
        defer { cleanUp() }
        let version = folder.appendingPathComponent("Org.xcdatamodel")
        try FileManager.default.createDirectory(at: version, withIntermediateDirectories: true)
        try xml.write(to: version.appendingPathComponent("contents"), atomically: true, encoding: .utf8)
        return try ModelLoader().load(url: version).model
    }

    /// A coordinator on a new schema for the model, and a connection for plain SQL; the schema is
    /// dropped by `body`'s end.
    static func withStore(
        _ xml: String = BatchRequestTests.modelXML(), _ body: (PersistentStoreCoordinator, PostgresConnection, PostgresURL) throws -> Void
    ) throws {
        let model = try model(xml)
        try PostgresContextTests.withSchema { url, connection in
            try body(try PostgresContextTests.coordinator(model, url), connection, url)
        }
    }

    static func rows(_ connection: PostgresConnection, _ sql: String) throws -> [[String]] {
        try PostgresContextTests.rows(connection, sql)
    }

    /// The many-to-many join table's quoted name.
    static func joinTable(_ coordinator: PersistentStoreCoordinator) throws -> String {
        PostgresConnection.quoteIdentifier(try BatchRequestTests.joinTable(coordinator).name)
    }

    static func request(_ entity: String, _ format: String, _ arguments: [Any?], _ subentities: Bool) throws -> BatchDeleteRequest {
        BatchDeleteRequest(
            fetchRequest: FetchRequest(
                entityName: entity, predicate: try PredicateNode(format: format, argumentArray: arguments), includesSubentities: subentities))
    }

    // MARK: Delete rules

    @Test("cascade deletes the destinations, and theirs in turn (department → employee → badge)")
    func cascade() throws {
        try Self.withStore(BatchRequestTests.modelXML(employees: "Cascade")) { coordinator, connection, _ in
            let context = ManagedObjectContext(coordinator: coordinator)
            try BatchRequestTests.seed(context)
            var request = try Self.request("Department", "name == %@", ["D1"], true)
            request.resultType = .count
            #expect(try context.execute(request) == .count(1))
            #expect(try Self.rows(connection, "SELECT \"ZNAME\" FROM \"ZDEPARTMENT\" ORDER BY 1") == [["D2"], ["D3"]])
            #expect(try Self.rows(connection, "SELECT \"ZNAME\" FROM \"ZEMPLOYEE\" ORDER BY 1") == [["Cy"], ["Max"]])
            #expect(try Self.rows(connection, "SELECT COUNT(*) FROM \"ZBADGE\"") == [["0"]])
            // Ann's and Bob's join rows went with them: P keeps Cy only, Q has nobody.
            #expect(try Self.rows(connection, "SELECT COUNT(*) FROM \(try Self.joinTable(coordinator))") == [["1"]])
            // Nothing of the batch is left in the session.
            #expect(try Self.rows(connection, "SELECT COUNT(*) FROM pg_class WHERE relname LIKE 'cdqi_batch%'") == [["0"]])
        }
    }

    @Test("nullify clears the inverse key and bumps Z_OPT of the destinations only")
    func nullify() throws {
        try Self.withStore { coordinator, connection, _ in
            let context = ManagedObjectContext(coordinator: coordinator)
            try BatchRequestTests.seed(context)
            #expect(try context.execute(Self.request("Department", "name == %@", ["D1"], true)) == .status(true))
            #expect(
                try Self.rows(
                    connection,
                    "SELECT \"ZNAME\", CASE WHEN \"ZDEPARTMENT\" IS NULL THEN 1 ELSE 0 END, \"Z_OPT\" FROM \"ZEMPLOYEE\" ORDER BY 1")
                    == [["Ann", "1", "2"], ["Bob", "1", "2"], ["Cy", "0", "1"], ["Max", "0", "1"]])
        }
    }

    /// Deleting Ann and Bob (D1's two employees, salary < 250, no manager) bumps D1 once per deleted
    /// employee (1 → 3), as one trigger run per row does; deleting badge A clears Ann's badge key (its
    /// inverse is to-one) and bumps her version (1 → 2). Run on SQLite too: both stores agree.
    static func versionBumps(_ context: ManagedObjectContext, rows: (String) throws -> [[String]]) throws {
        try BatchRequestTests.seed(context)
        var request = try Self.request("Employee", "salary < 250", [], false)
        request.resultType = .count
        #expect(try context.execute(request) == .count(2))
        #expect(try rows("SELECT \"ZNAME\", \"Z_OPT\" FROM \"ZDEPARTMENT\" ORDER BY 1") == [["D1", "3"], ["D2", "1"], ["D3", "1"]])
        // Ann's badge A and Bob's badge B went by the cascade.
        #expect(try rows("SELECT COUNT(*) FROM \"ZBADGE\"") == [["0"]])
    }

    @Test("a to-one's destination is bumped once per deleted row naming it, on both stores")
    func bumpsPerRow() throws {
        try Self.withStore { coordinator, connection, _ in
            try Self.versionBumps(ManagedObjectContext(coordinator: coordinator)) { try Self.rows(connection, $0) }
        }
        let (sqlite, _, cleanUp) = try BatchRequestTests.coordinator()
        defer { cleanUp() }
        try Self.versionBumps(ManagedObjectContext(coordinator: sqlite)) { try BatchRequestTests.rows(sqlite, $0) }
    }

    @Test("nullify through an inverse to-one clears the key and bumps the destination")
    func nullifyToOne() throws {
        try Self.withStore { coordinator, connection, _ in
            let context = ManagedObjectContext(coordinator: coordinator)
            try BatchRequestTests.seed(context)
            #expect(try context.execute(Self.request("Badge", "code == %@", ["A"], true)) == .status(true))
            #expect(
                try Self.rows(connection, "SELECT \"ZNAME\", CASE WHEN \"ZBADGE\" IS NULL THEN 1 ELSE 0 END, \"Z_OPT\" FROM \"ZEMPLOYEE\" ORDER BY 1")
                    == [["Ann", "1", "2"], ["Bob", "0", "1"], ["Cy", "1", "1"], ["Max", "1", "1"]])
        }
    }

    @Test("nullify against a mandatory inverse refuses the whole batch and changes nothing")
    func mandatoryInverse() throws {
        try Self.withStore(BatchRequestTests.modelXML(departmentOptional: false)) { coordinator, connection, _ in
            let context = ManagedObjectContext(coordinator: coordinator)
            try BatchRequestTests.seed(context)
            #expect {
                try context.execute(Self.request("Department", "name BEGINSWITH %@", ["D"], true))
            } throws: { error in
                guard case BatchError.mandatoryInverse(let entity, let relationship) = error else { return false }
                return entity == "Department" && relationship == "employees"
            }
            #expect(try Self.rows(connection, "SELECT COUNT(*) FROM \"ZDEPARTMENT\"") == [["3"]])
            #expect(
                try Self.rows(connection, "SELECT COUNT(*) FROM \"ZEMPLOYEE\" WHERE \"ZDEPARTMENT\" IS NOT NULL AND \"Z_OPT\" = 1") == [["4"]])
            // D3 has no employees: nothing to nullify, so it goes.
            #expect(try context.execute(Self.request("Department", "name == %@", ["D3"], true)) == .status(true))
            #expect(try Self.rows(connection, "SELECT \"ZNAME\" FROM \"ZDEPARTMENT\" ORDER BY 1") == [["D1"], ["D2"]])
        }
    }

    @Test("deny refuses while a deleted object has destinations, and allows it otherwise")
    func deny() throws {
        try Self.withStore(BatchRequestTests.modelXML(employees: "Deny")) { coordinator, connection, _ in
            let context = ManagedObjectContext(coordinator: coordinator)
            try BatchRequestTests.seed(context)
            #expect {
                try context.execute(Self.request("Department", "TRUEPREDICATE", [], true))
            } throws: { error in
                guard case BatchError.deleteDenied(let entity, let relationship) = error else { return false }
                return entity == "Department" && relationship == "employees"
            }
            #expect(try Self.rows(connection, "SELECT COUNT(*) FROM \"ZDEPARTMENT\"") == [["3"]])
            var request = try Self.request("Department", "employees.@count == 0", [], true)
            request.resultType = .count
            #expect(try context.execute(request) == .count(1))
            #expect(try Self.rows(connection, "SELECT \"ZNAME\" FROM \"ZDEPARTMENT\" ORDER BY 1") == [["D1"], ["D2"]])
        }
    }

    @Test("a cascade within one table deletes a whole tree, and the context learns of every row")
    func cascadeTree() throws {
        try Self.withStore { coordinator, connection, _ in
            let context = ManagedObjectContext(coordinator: coordinator)
            let root = try ContextTestSupport.insert(context, "Node", ["name": "root"])
            let child = try ContextTestSupport.insert(context, "Node", ["name": "child", "parent": root])
            try ContextTestSupport.insert(context, "Node", ["name": "grandchild", "parent": child])
            try ContextTestSupport.insert(context, "Node", ["name": "other"])
            try context.save()
            var request = try Self.request("Node", "name == %@", ["root"], true)
            request.resultType = .objectIDs
            #expect(try context.execute(request) == .objectIDs([root.objectID]))
            #expect(try Self.rows(connection, "SELECT \"ZNAME\" FROM \"ZNODE\"") == [["other"]])
            #expect(throws: ManagedObjectError.self) { try child.value(forKey: "name") }
        }
    }

    /// Owners with a to-one pet (Deny), teams with many-to-many players (Deny), clubs whose many-to-many
    /// members must each keep a club (Person.clubs is not optional), notes with inverse-less tags.
    static let refusalsModelXML = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="23507" systemVersion="24G84" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
            <entity name="Club" representedClassName="Club" syncable="YES">
                <attribute name="name" optional="YES" attributeType="String"/>
                <relationship name="members" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Person" inverseName="clubs" inverseEntity="Person"/>
            </entity>
            <entity name="Note" representedClassName="Note" syncable="YES">
                <attribute name="name" optional="YES" attributeType="String"/>
                <relationship name="tags" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Tag"/>
            </entity>
            <entity name="Owner" representedClassName="Owner" syncable="YES">
                <attribute name="name" optional="YES" attributeType="String"/>
                <relationship name="pet" optional="YES" maxCount="1" deletionRule="Deny" destinationEntity="Pet" inverseName="owner" inverseEntity="Pet"/>
            </entity>
            <entity name="Person" representedClassName="Person" syncable="YES">
                <attribute name="name" optional="YES" attributeType="String"/>
                <relationship name="clubs" toMany="YES" deletionRule="Nullify" destinationEntity="Club" inverseName="members" inverseEntity="Club"/>
            </entity>
            <entity name="Pet" representedClassName="Pet" syncable="YES">
                <attribute name="name" optional="YES" attributeType="String"/>
                <relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Owner" inverseName="pet" inverseEntity="Owner"/>
            </entity>
            <entity name="Player" representedClassName="Player" syncable="YES">
                <attribute name="name" optional="YES" attributeType="String"/>
                <relationship name="teams" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Team" inverseName="players" inverseEntity="Team"/>
            </entity>
            <entity name="Tag" representedClassName="Tag" syncable="YES">
                <attribute name="name" optional="YES" attributeType="String"/>
            </entity>
            <entity name="Team" representedClassName="Team" syncable="YES">
                <attribute name="name" optional="YES" attributeType="String"/>
                <relationship name="players" optional="YES" toMany="YES" deletionRule="Deny" destinationEntity="Player" inverseName="teams" inverseEntity="Player"/>
            </entity>
        </model>
        """

    /// The refusals and join rows of ``refusalsModelXML``, on either store: Ann owns the pet Rex, Bo
    /// owns none; team Red has player Pia, team Blue none; person P1 is in club C1 only, P2 in C1 and
    /// C2; note N has tags T1 and T2.
    static func refusalsAndJoins(_ coordinator: PersistentStoreCoordinator, rows: (String) throws -> [[String]]) throws {
        let context = ManagedObjectContext(coordinator: coordinator)
        let rex = try ContextTestSupport.insert(context, "Pet", ["name": "Rex"])
        try ContextTestSupport.insert(context, "Owner", ["name": "Ann", "pet": rex])
        try ContextTestSupport.insert(context, "Owner", ["name": "Bo"])
        let pia = try ContextTestSupport.insert(context, "Player", ["name": "Pia"])
        try ContextTestSupport.insert(context, "Team", ["name": "Red", "players": Set([pia])])
        try ContextTestSupport.insert(context, "Team", ["name": "Blue"])
        let c1 = try ContextTestSupport.insert(context, "Club", ["name": "C1"])
        let c2 = try ContextTestSupport.insert(context, "Club", ["name": "C2"])
        try ContextTestSupport.insert(context, "Person", ["name": "P1", "clubs": Set([c1])])
        try ContextTestSupport.insert(context, "Person", ["name": "P2", "clubs": Set([c1, c2])])
        let tags = try ["T1", "T2"].map { try ContextTestSupport.insert(context, "Tag", ["name": $0]) }
        try ContextTestSupport.insert(context, "Note", ["name": "N", "tags": Set(tags)])
        try context.save()
        /// The join table of a relationship, whichever of its two sides the layout named it after.
        func join(_ entity: String, _ relationship: String, inverse: (entity: String, relationship: String)? = nil) throws -> String {
            let table = try #require(
                coordinator.layout.schema.joinTables.first {
                    ($0.sourceEntity == entity && $0.relationship == relationship)
                        || ($0.sourceEntity == inverse?.entity && $0.relationship == inverse?.relationship)
                })
            return "\"\(table.name)\""
        }
        func refused(_ entity: String, _ format: String, _ expected: BatchError) {
            #expect(throws: BatchError.self) {
                do {
                    _ = try context.execute(Self.request(entity, format, [], true))
                } catch let error as BatchError {
                    #expect(error.description == expected.description)
                    throw error
                }
            }
        }
        // A to-one Deny: Ann still has Rex; Bo has no pet and goes.
        refused("Owner", "TRUEPREDICATE", .deleteDenied(entity: "Owner", relationship: "pet"))
        #expect(try context.execute(Self.request("Owner", "name == 'Bo'", [], true)) == .status(true))
        #expect(try rows("SELECT \"ZNAME\" FROM \"ZOWNER\"") == [["Ann"]])
        // A many-to-many Deny: Red still has Pia; Blue goes.
        refused("Team", "TRUEPREDICATE", .deleteDenied(entity: "Team", relationship: "players"))
        #expect(try context.execute(Self.request("Team", "name == 'Blue'", [], true)) == .status(true))
        #expect(try rows("SELECT \"ZNAME\" FROM \"ZTEAM\"") == [["Red"]])
        // Without C1, P1 would have no club (clubs is mandatory): refused, also with C2 in the same batch.
        refused("Club", "name == 'C1'", .mandatoryInverse(entity: "Club", relationship: "members"))
        refused("Club", "TRUEPREDICATE", .mandatoryInverse(entity: "Club", relationship: "members"))
        // Without C2, P2 keeps C1: C2 goes with its join row (3 rows → 2).
        let members = try join("Person", "clubs", inverse: ("Club", "members"))
        #expect(try rows("SELECT COUNT(*) FROM \(members)") == [["3"]])
        #expect(try context.execute(Self.request("Club", "name == 'C2'", [], true)) == .status(true))
        #expect(try rows("SELECT \"ZNAME\" FROM \"ZCLUB\"") == [["C1"]])
        #expect(try rows("SELECT COUNT(*) FROM \(members)") == [["2"]])
        // An inverse-less to-many: deleting T1 removes N's join row to it (2 rows → 1); N stays.
        let tagged = try join("Note", "tags")
        #expect(try context.execute(Self.request("Tag", "name == 'T1'", [], true)) == .status(true))
        #expect(try rows("SELECT COUNT(*) FROM \(tagged)") == [["1"]])
        #expect(try rows("SELECT COUNT(*) FROM \"ZNOTE\"") == [["1"]])
        // Nothing was deleted by a refused batch.
        #expect(try rows("SELECT COUNT(*) FROM \"ZPET\"") == [["1"]])
        #expect(try rows("SELECT COUNT(*) FROM \"ZPERSON\"") == [["2"]])
    }

    @Test("to-one and many-to-many Deny, a mandatory many-to-many inverse and inverse-less join rows, on both stores")
    func refusalsAndJoins() throws {
        try Self.withStore(Self.refusalsModelXML) { coordinator, connection, _ in
            try Self.refusalsAndJoins(coordinator) { try Self.rows(connection, $0) }
        }
        let (sqlite, _, cleanUp) = try BatchRequestTests.coordinator(Self.refusalsModelXML)
        defer { cleanUp() }
        try Self.refusalsAndJoins(sqlite) { try BatchRequestTests.rows(sqlite, $0) }
    }

    // MARK: Tables

    @Test("sub-entities sharing a table: the Z_ENT range keeps other entities' rows")
    func subentities() throws {
        try Self.withStore { coordinator, connection, _ in
            let context = ManagedObjectContext(coordinator: coordinator)
            try BatchRequestTests.seed(context)
            // Employees earning over 150, without managers: Bob and Cy (Max earns 400 but is a Manager).
            var request = try Self.request("Employee", "salary > 150", [], false)
            request.resultType = .count
            #expect(try context.execute(request) == .count(2))
            #expect(try Self.rows(connection, "SELECT \"ZNAME\" FROM \"ZEMPLOYEE\" ORDER BY 1") == [["Ann"], ["Max"]])
            request = try Self.request("Manager", "TRUEPREDICATE", [], true)
            request.resultType = .count
            #expect(try context.execute(request) == .count(1))
            #expect(try Self.rows(connection, "SELECT \"ZNAME\" FROM \"ZEMPLOYEE\"") == [["Ann"]])
            // Bob's badge was cascaded; Ann's stays.
            #expect(try Self.rows(connection, "SELECT \"ZCODE\" FROM \"ZBADGE\"") == [["A"]])
        }
    }

    @Test("many-to-many: the deleted rows' join rows go, the destinations stay; a cascade goes through the join table")
    func manyToMany() throws {
        try Self.withStore { coordinator, connection, _ in
            let context = ManagedObjectContext(coordinator: coordinator)
            try BatchRequestTests.seed(context)
            let join = try Self.joinTable(coordinator)
            #expect(try Self.rows(connection, "SELECT COUNT(*) FROM \(join)") == [["4"]])
            _ = try context.execute(Self.request("Employee", "name == %@", ["Bob"], true))
            #expect(try Self.rows(connection, "SELECT COUNT(*) FROM \(join)") == [["2"]])
            #expect(try Self.rows(connection, "SELECT \"ZTITLE\" FROM \"ZPROJECT\" ORDER BY 1") == [["P"], ["Q"]])
        }
        try Self.withStore(BatchRequestTests.modelXML(members: "Cascade")) { coordinator, connection, _ in
            let context = ManagedObjectContext(coordinator: coordinator)
            try BatchRequestTests.seed(context)
            // Q's only member is Bob: he goes, with his badge and his join rows (to P and Q).
            _ = try context.execute(Self.request("Project", "title == %@", ["Q"], true))
            #expect(try Self.rows(connection, "SELECT \"ZNAME\" FROM \"ZEMPLOYEE\" ORDER BY 1") == [["Ann"], ["Cy"], ["Max"]])
            #expect(try Self.rows(connection, "SELECT COUNT(*) FROM \(try Self.joinTable(coordinator))") == [["2"]])
            #expect(try Self.rows(connection, "SELECT \"ZCODE\" FROM \"ZBADGE\"") == [["A"]])
        }
    }

    @Test("a predicate through a to-one relationship chooses the rows deleted")
    func joinedPredicate() throws {
        try Self.withStore { coordinator, connection, _ in
            let context = ManagedObjectContext(coordinator: coordinator)
            try BatchRequestTests.seed(context)
            var request = try Self.request("Employee", "department.name == %@", ["D2"], true)
            request.resultType = .count
            #expect(try context.execute(request) == .count(2))
            #expect(try Self.rows(connection, "SELECT \"ZNAME\" FROM \"ZEMPLOYEE\" ORDER BY 1") == [["Ann"], ["Bob"]])
        }
    }

    // MARK: Contexts

    @Test("contexts: cascaded objects are invalidated, nullified ones refreshed, here and in a following context")
    func contexts() throws {
        try Self.withStore(BatchRequestTests.modelXML(employees: "Cascade")) { coordinator, _, _ in
            let writer = ManagedObjectContext(coordinator: coordinator)
            let objects = try BatchRequestTests.seed(writer)
            let reader = ManagedObjectContext(coordinator: coordinator)
            reader.automaticallyMergesChangesFromParent = true
            let readerBob = try reader.existingObject(with: try #require(objects["Bob"]).objectID)
            #expect(try readerBob.value(forKey: "name") as? String == "Bob")
            let q = try #require(objects["Q"])
            #expect((try q.value(forKey: "members") as? Set<ManagedObject>)?.count == 1)
            _ = try writer.execute(Self.request("Department", "name == %@", ["D1"], true))
            // Ann and Bob went by the cascade, their badges with them.
            #expect(throws: ManagedObjectError.self) { try objects["Ann"]?.value(forKey: "name") }
            #expect(throws: ManagedObjectError.self) { try objects["A"]?.value(forKey: "code") }
            reader.processPendingMerges()
            #expect(throws: ManagedObjectError.self) { try readerBob.value(forKey: "name") }
        }
        try Self.withStore { coordinator, _, _ in
            let context = ManagedObjectContext(coordinator: coordinator)
            let objects = try BatchRequestTests.seed(context)
            let ann = try #require(objects["Ann"])
            #expect(try (ann.value(forKey: "department") as? ManagedObject)?.value(forKey: "name") as? String == "D1")
            _ = try context.execute(Self.request("Department", "name == %@", ["D1"], true))
            // Ann's row was changed by the nullify: she reads her new row, without a department.
            #expect(try ann.value(forKey: "department") == nil)
            #expect(ann.rowVersion == 2)
        }
    }

    // MARK: Concurrency

    @Test("two processes deleting overlapping sets at once: no deadlock left standing, each row deleted once, the others kept")
    func overlappingDeletes() throws {
        let (folder, cleanUp) = try StoreTestSupport.temporaryFolder()
        defer { cleanUp() }
        let xml = BatchRequestTests.modelXML(employees: "Cascade")
        let modelFolder = folder.appendingPathComponent("Org.xcdatamodel")
        try FileManager.default.createDirectory(at: modelFolder, withIntermediateDirectories: true)
        try xml.write(to: modelFolder.appendingPathComponent("contents"), atomically: true, encoding: .utf8)
        let binary = try PostgresConcurrencyTests.workerBinary()
        try Self.withStore(xml) { coordinator, connection, url in
            for round in 0..<4 {
                // 120 departments, each with 2 employees; one process deletes D000…D059, the other D040…D099;
                // D100…D119 and their employees stay.
                let context = ManagedObjectContext(coordinator: coordinator)
                for index in 0..<120 {
                    let department = try ContextTestSupport.insert(context, "Department", ["name": String(format: "D%03d", index)])
                    for person in 0..<2 {
                        try ContextTestSupport.insert(context, "Employee", ["name": "E\(index)-\(person)", "department": department])
                    }
                }
                try context.save()
                let go = folder.appendingPathComponent("go\(round)")
                var processes: [(Process, URL)] = []
                defer { for (process, _) in processes where process.isRunning { process.terminate() } }
                let ranges = [("D000", "D059"), ("D040", "D099")]
                try PostgresConcurrencyTests.runTogether(
                    binary,
                    ranges.map {
                        ["batch-delete", modelFolder.path, PostgresConcurrencyTests.urlString(schema: url.schema), $0.0, $0.1, go.path]
                    },
                    outputs: ranges.indices.map { folder.appendingPathComponent("round\(round)-worker\($0).out") }, go: go,
                    waiting: 120, processes: &processes)
                var keys: [Int64] = []
                for (worker, (process, output)) in processes.enumerated() {
                    try #require(!process.isRunning, "round \(round): worker \(worker) did not finish in 2 minutes")
                    #expect(process.terminationStatus == 0, "round \(round): worker \(worker) failed")
                    let lines = try String(contentsOf: output, encoding: .utf8).split(separator: "\n")
                    #expect(lines.last == "DONE", "round \(round): worker \(worker)")
                    for line in lines where line.hasPrefix("DELETED") { keys += line.split(separator: " ").dropFirst().compactMap { Int64($0) } }
                }
                // Each of the 100 departments matched was deleted by exactly one of the two.
                #expect(keys.count == 100 && Set(keys).count == 100, "round \(round): \(keys.count) keys")
                #expect(
                    try Self.rows(connection, "SELECT COUNT(*), MIN(\"ZNAME\"), MAX(\"ZNAME\") FROM \"ZDEPARTMENT\"") == [["20", "D100", "D119"]])
                #expect(try Self.rows(connection, "SELECT COUNT(*) FROM \"ZEMPLOYEE\"") == [["40"]])
                try connection.execute("DELETE FROM \"ZEMPLOYEE\"; DELETE FROM \"ZDEPARTMENT\"")
            }
        }
    }
}
