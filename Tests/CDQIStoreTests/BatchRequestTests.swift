import CDQIModel
import CDQIPredicate
import Foundation
import Testing

@testable import CDQIObjects
@testable import CDQISQLite
@testable import CDQIStore

/// Batch delete and batch update (issue 17, item 3): delete rules as Core Data applies them in SQL,
/// sub-entities sharing a table, join-table rows, `Z_OPT` and optimistic locking, results, and what
/// contexts see afterwards. Every expected value is worked out from the rows each test inserts.
@Suite("Batch requests")
struct BatchRequestTests {
    /// Departments with employees (Manager is a sub-entity sharing ZEMPLOYEE), each employee with a
    /// one-to-one badge (cascade) and many-to-many projects; nodes form a tree (children cascade).
    static func modelXML(employees: String = "Nullify", departmentOptional: Bool = true, members: String = "Nullify") -> String {
        """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="23507" systemVersion="24G84" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
            <entity name="Badge" representedClassName="Badge" syncable="YES">
                <attribute name="code" optional="YES" attributeType="String"/>
                <relationship name="employee" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Employee" inverseName="badge" inverseEntity="Employee"/>
            </entity>
            <entity name="Department" representedClassName="Department" syncable="YES">
                <attribute name="name" optional="YES" attributeType="String"/>
                <relationship name="employees" optional="YES" toMany="YES" deletionRule="\(employees)" destinationEntity="Employee" inverseName="department" inverseEntity="Employee"/>
            </entity>
            <entity name="Employee" representedClassName="Employee" syncable="YES">
                <attribute name="name" optional="YES" attributeType="String"/>
                <attribute name="salary" optional="YES" attributeType="Integer 64" defaultValueString="0" usesScalarValueType="YES"/>
                <relationship name="badge" optional="YES" maxCount="1" deletionRule="Cascade" destinationEntity="Badge" inverseName="employee" inverseEntity="Badge"/>
                <relationship name="department" optional="\(departmentOptional ? "YES" : "NO")" maxCount="1" deletionRule="Nullify" destinationEntity="Department" inverseName="employees" inverseEntity="Department"/>
                <relationship name="projects" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Project" inverseName="members" inverseEntity="Project"/>
            </entity>
            <entity name="Manager" representedClassName="Manager" parentEntity="Employee" syncable="YES">
                <attribute name="level" optional="YES" attributeType="Integer 16" defaultValueString="0" usesScalarValueType="YES"/>
            </entity>
            <entity name="Node" representedClassName="Node" syncable="YES">
                <attribute name="name" optional="YES" attributeType="String"/>
                <relationship name="children" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Node" inverseName="parent" inverseEntity="Node"/>
                <relationship name="parent" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Node" inverseName="children" inverseEntity="Node"/>
            </entity>
            <entity name="Project" representedClassName="Project" syncable="YES">
                <attribute name="title" optional="YES" attributeType="String"/>
                <relationship name="members" optional="YES" toMany="YES" deletionRule="\(members)" destinationEntity="Employee" inverseName="projects" inverseEntity="Employee"/>
            </entity>
        </model>
        """
    }

    /// A coordinator on a new store file for the model, with the folder's clean-up.
    static func coordinator(_ xml: String = modelXML()) throws -> (PersistentStoreCoordinator, URL, () -> Void) {
        let (folder, cleanUp) = try StoreTestSupport.temporaryFolder()
        let version = folder.appendingPathComponent("Org.xcdatamodel")
        try FileManager.default.createDirectory(at: version, withIntermediateDirectories: true)
        try xml.write(to: version.appendingPathComponent("contents"), atomically: true, encoding: .utf8)
        let model = try ModelLoader().load(url: version).model
        let url = folder.appendingPathComponent("Org.sqlite")
        return (try PersistentStoreCoordinator(model: model, url: url), url, cleanUp)
    }

    /// Saved objects: D1 {Ann 100 (badge A), Bob 200 (badge B)}, D2 {Cy 300, manager Max 400 level 2},
    /// D3 {}; Ann and Cy on project P, Bob on P and Q.
    @discardableResult
    static func seed(_ context: ManagedObjectContext) throws -> [String: ManagedObject] {
        var objects: [String: ManagedObject] = [:]
        for name in ["D1", "D2", "D3"] { objects[name] = try ContextTestSupport.insert(context, "Department", ["name": name]) }
        for (name, salary, department) in [("Ann", 100, "D1"), ("Bob", 200, "D1"), ("Cy", 300, "D2")] {
            objects[name] = try ContextTestSupport.insert(
                context, "Employee", ["name": name, "salary": salary, "department": objects[department]])
        }
        objects["Max"] = try ContextTestSupport.insert(
            context, "Manager", ["name": "Max", "salary": 400, "level": 2, "department": objects["D2"]])
        for (code, owner) in [("A", "Ann"), ("B", "Bob")] {
            objects[code] = try ContextTestSupport.insert(context, "Badge", ["code": code, "employee": objects[owner]])
        }
        objects["P"] = try ContextTestSupport.insert(context, "Project", ["title": "P"])
        objects["Q"] = try ContextTestSupport.insert(context, "Project", ["title": "Q"])
        try objects["P"]?.setValue(Set([objects["Ann"], objects["Bob"], objects["Cy"]].compactMap { $0 }), forKey: "members")
        try objects["Q"]?.setValue(Set([objects["Bob"]].compactMap { $0 }), forKey: "members")
        try context.save()
        return objects
    }

    static func deleteRequest(_ entity: String, _ format: String, _ arguments: Any?..., subentities: Bool = true) throws -> BatchDeleteRequest {
        BatchDeleteRequest(
            fetchRequest: FetchRequest(
                entityName: entity, predicate: try PredicateNode(format: format, argumentArray: arguments), includesSubentities: subentities))
    }

    static func rows(_ coordinator: PersistentStoreCoordinator, _ sql: String) throws -> [[String]] {
        try ContextTestSupport.rows(coordinator, sql)
    }

    /// The many-to-many join table's name.
    static func joinTable(_ coordinator: PersistentStoreCoordinator) throws -> JoinTable {
        try #require(coordinator.layout.schema.joinTables.first)
    }

    // MARK: Delete rules

    @Test("cascade deletes the destinations, and theirs in turn (employee → badge)")
    func cascade() throws {
        let (coordinator, _, cleanUp) = try Self.coordinator(Self.modelXML(employees: "Cascade"))
        defer { cleanUp() }
        let context = ManagedObjectContext(coordinator: coordinator)
        try Self.seed(context)
        var request = try Self.deleteRequest("Department", "name == %@", "D1")
        request.resultType = .count
        #expect(try context.execute(request) == .count(1))
        #expect(try Self.rows(coordinator, "SELECT ZNAME FROM ZDEPARTMENT ORDER BY ZNAME") == [["D2"], ["D3"]])
        #expect(try Self.rows(coordinator, "SELECT ZNAME FROM ZEMPLOYEE ORDER BY ZNAME") == [["Cy"], ["Max"]])
        #expect(try Self.rows(coordinator, "SELECT COUNT(*) FROM ZBADGE") == [["0"]])
        // Ann's and Bob's join rows went with them: P keeps Cy only, Q has nobody.
        let join = try Self.joinTable(coordinator)
        #expect(try Self.rows(coordinator, "SELECT COUNT(*) FROM \(join.name)") == [["1"]])
    }

    @Test("nullify clears the inverse key and bumps Z_OPT of the destinations only")
    func nullify() throws {
        let (coordinator, _, cleanUp) = try Self.coordinator()
        defer { cleanUp() }
        let context = ManagedObjectContext(coordinator: coordinator)
        try Self.seed(context)
        #expect(try context.execute(Self.deleteRequest("Department", "name == %@", "D1")) == .status(true))
        #expect(
            try Self.rows(coordinator, "SELECT ZNAME, ZDEPARTMENT IS NULL, Z_OPT FROM ZEMPLOYEE ORDER BY ZNAME")
                == [["Ann", "1", "2"], ["Bob", "1", "2"], ["Cy", "0", "1"], ["Max", "0", "1"]])
    }

    @Test("nullify against a mandatory inverse refuses the whole batch and changes nothing")
    func mandatoryInverse() throws {
        let (coordinator, url, cleanUp) = try Self.coordinator(Self.modelXML(departmentOptional: false))
        defer { cleanUp() }
        let context = ManagedObjectContext(coordinator: coordinator)
        try Self.seed(context)
        let before = try Data(contentsOf: url)
        #expect {
            try context.execute(Self.deleteRequest("Department", "name BEGINSWITH %@", "D"))
        } throws: { error in
            guard case BatchError.mandatoryInverse(let entity, let relationship) = error else { return false }
            return entity == "Department" && relationship == "employees"
        }
        #expect(try Self.rows(coordinator, "SELECT COUNT(*) FROM ZDEPARTMENT") == [["3"]])
        #expect(try Self.rows(coordinator, "SELECT COUNT(*) FROM ZEMPLOYEE WHERE ZDEPARTMENT IS NOT NULL AND Z_OPT = 1") == [["4"]])
        #expect(try Self.rows(coordinator, "SELECT name FROM sqlite_temp_master") == [])
        #expect(try Data(contentsOf: url) == before)
        // D3 has no employees: nothing to nullify, so it goes.
        #expect(try context.execute(Self.deleteRequest("Department", "name == %@", "D3")) == .status(true))
        #expect(try Self.rows(coordinator, "SELECT ZNAME FROM ZDEPARTMENT ORDER BY ZNAME") == [["D1"], ["D2"]])
    }

    @Test("deny refuses while a deleted object has destinations, and allows it otherwise")
    func deny() throws {
        let (coordinator, _, cleanUp) = try Self.coordinator(Self.modelXML(employees: "Deny"))
        defer { cleanUp() }
        let context = ManagedObjectContext(coordinator: coordinator)
        try Self.seed(context)
        #expect {
            try context.execute(Self.deleteRequest("Department", "TRUEPREDICATE"))
        } throws: { error in
            guard case BatchError.deleteDenied(let entity, let relationship) = error else { return false }
            return entity == "Department" && relationship == "employees"
        }
        #expect(try Self.rows(coordinator, "SELECT COUNT(*) FROM ZDEPARTMENT") == [["3"]])
        var request = try Self.deleteRequest("Department", "employees.@count == 0")
        request.resultType = .count
        #expect(try context.execute(request) == .count(1))
        #expect(try Self.rows(coordinator, "SELECT ZNAME FROM ZDEPARTMENT ORDER BY ZNAME") == [["D1"], ["D2"]])
    }

    @Test("a cascade within one table deletes a whole tree")
    func cascadeTree() throws {
        let (coordinator, _, cleanUp) = try Self.coordinator()
        defer { cleanUp() }
        let context = ManagedObjectContext(coordinator: coordinator)
        let root = try ContextTestSupport.insert(context, "Node", ["name": "root"])
        let child = try ContextTestSupport.insert(context, "Node", ["name": "child", "parent": root])
        try ContextTestSupport.insert(context, "Node", ["name": "grandchild", "parent": child])
        try ContextTestSupport.insert(context, "Node", ["name": "other"])
        try context.save()
        var request = try Self.deleteRequest("Node", "name == %@", "root")
        request.resultType = .objectIDs
        #expect(try context.execute(request) == .objectIDs([root.objectID]))
        #expect(try Self.rows(coordinator, "SELECT ZNAME FROM ZNODE") == [["other"]])
        // The cascaded objects were merged here too: the child is invalidated.
        #expect(throws: ManagedObjectError.self) { try child.value(forKey: "name") }
    }

    // MARK: Tables

    @Test("sub-entities sharing a table: the Z_ENT range keeps other entities' rows")
    func subentities() throws {
        let (coordinator, _, cleanUp) = try Self.coordinator()
        defer { cleanUp() }
        let context = ManagedObjectContext(coordinator: coordinator)
        try Self.seed(context)
        // Employees earning over 150, without managers: Bob and Cy (Max earns 400 but is a Manager).
        var request = try Self.deleteRequest("Employee", "salary > 150", subentities: false)
        request.resultType = .count
        #expect(try context.execute(request) == .count(2))
        #expect(try Self.rows(coordinator, "SELECT ZNAME FROM ZEMPLOYEE ORDER BY ZNAME") == [["Ann"], ["Max"]])
        // Managers only: Max.
        request = try Self.deleteRequest("Manager", "TRUEPREDICATE")
        request.resultType = .count
        #expect(try context.execute(request) == .count(1))
        #expect(try Self.rows(coordinator, "SELECT ZNAME FROM ZEMPLOYEE") == [["Ann"]])
        // Bob's badge was cascaded; Ann's stays.
        #expect(try Self.rows(coordinator, "SELECT ZCODE FROM ZBADGE") == [["A"]])
    }

    @Test("many-to-many: the deleted rows' join rows go, the destinations stay")
    func manyToMany() throws {
        let (coordinator, _, cleanUp) = try Self.coordinator()
        defer { cleanUp() }
        let context = ManagedObjectContext(coordinator: coordinator)
        try Self.seed(context)
        let join = try Self.joinTable(coordinator)
        #expect(try Self.rows(coordinator, "SELECT COUNT(*) FROM \(join.name)") == [["4"]])
        _ = try context.execute(Self.deleteRequest("Employee", "name == %@", "Bob"))
        #expect(try Self.rows(coordinator, "SELECT COUNT(*) FROM \(join.name)") == [["2"]])
        #expect(try Self.rows(coordinator, "SELECT ZTITLE FROM ZPROJECT ORDER BY ZTITLE") == [["P"], ["Q"]])
        // Deleting projects with cascade members removes the members through the join table.
        let (cascading, _, cleanUp2) = try Self.coordinator(Self.modelXML(members: "Cascade"))
        defer { cleanUp2() }
        let other = ManagedObjectContext(coordinator: cascading)
        try Self.seed(other)
        _ = try other.execute(Self.deleteRequest("Project", "title == %@", "Q"))
        #expect(try Self.rows(cascading, "SELECT ZNAME FROM ZEMPLOYEE ORDER BY ZNAME") == [["Ann"], ["Cy"], ["Max"]])
        #expect(try Self.rows(cascading, "SELECT COUNT(*) FROM \(join.name)") == [["2"]])
    }

    @Test("a predicate through a to-one relationship deletes through a subquery")
    func joinedPredicate() throws {
        let (coordinator, _, cleanUp) = try Self.coordinator()
        defer { cleanUp() }
        let context = ManagedObjectContext(coordinator: coordinator)
        try Self.seed(context)
        var request = try Self.deleteRequest("Employee", "department.name == %@", "D2")
        request.resultType = .count
        #expect(try context.execute(request) == .count(2))
        #expect(try Self.rows(coordinator, "SELECT ZNAME FROM ZEMPLOYEE ORDER BY ZNAME") == [["Ann"], ["Bob"]])
    }

    // MARK: Batch update

    @Test("batch update sets values and expressions, and bumps Z_OPT of the matched rows only")
    func update() throws {
        let (coordinator, _, cleanUp) = try Self.coordinator()
        defer { cleanUp() }
        let context = ManagedObjectContext(coordinator: coordinator)
        let objects = try Self.seed(context)
        var request = BatchUpdateRequest(
            entityName: "Employee", predicate: try PredicateNode(format: "salary >= 200"),
            propertiesToUpdate: ["salary": .expression(try ExpressionNode(format: "salary * 2 + 1")), "name": .value("X")])
        request.resultType = .objectIDs
        guard case .objectIDs(let ids) = try context.execute(request) else {
            Issue.record("not object IDs")
            return
        }
        #expect(Set(ids) == Set(["Bob", "Cy", "Max"].compactMap { objects[$0]?.objectID }))
        #expect(
            try Self.rows(coordinator, "SELECT ZSALARY, ZNAME, Z_OPT FROM ZEMPLOYEE ORDER BY Z_PK")
                == [["100", "Ann", "1"], ["401", "X", "2"], ["601", "X", "2"], ["801", "X", "2"]])
        // A stored value converted to the attribute's type, and a count result.
        request = BatchUpdateRequest(entityName: "Manager", propertiesToUpdate: ["level": .stored(.integer(7))])
        request.resultType = .count
        #expect(try context.execute(request) == .count(1))
        #expect(try Self.rows(coordinator, "SELECT ZLEVEL, Z_OPT FROM ZEMPLOYEE WHERE ZLEVEL IS NOT NULL") == [["7", "3"]])
    }

    @Test("bad batch updates fail with a typed error and change nothing")
    func badUpdates() throws {
        let (coordinator, _, cleanUp) = try Self.coordinator()
        defer { cleanUp() }
        let context = ManagedObjectContext(coordinator: coordinator)
        try Self.seed(context)
        #expect(throws: BatchError.self) {
            try context.execute(BatchUpdateRequest(entityName: "Employee", propertiesToUpdate: ["department": .value(nil)]))
        }
        #expect(throws: BatchError.self) {
            try context.execute(BatchUpdateRequest(entityName: "Employee", propertiesToUpdate: ["salary": .value("lots")]))
        }
        #expect(throws: BatchError.self) {
            try context.execute(BatchUpdateRequest(entityName: "Nobody", propertiesToUpdate: ["salary": .value(1)]))
        }
        #expect(throws: BatchError.self) {
            try context.execute(
                BatchUpdateRequest(
                    entityName: "Employee", propertiesToUpdate: ["name": .expression(try ExpressionNode(format: "department.name"))]))
        }
        // A predicate value that would be SQL if pasted in is only a bound value.
        _ = try context.execute(
            BatchUpdateRequest(
                entityName: "Employee", predicate: try PredicateNode(format: "name == %@", "x' OR 1=1 --"),
                propertiesToUpdate: ["salary": .value(0)]))
        #expect(try Self.rows(coordinator, "SELECT SUM(ZSALARY), MAX(Z_OPT) FROM ZEMPLOYEE") == [["1000", "1"]])
    }

    // MARK: Contexts

    @Test("registered objects: deleted ones are invalidated, updated unchanged ones are refreshed")
    func registeredObjects() throws {
        let (coordinator, _, cleanUp) = try Self.coordinator()
        defer { cleanUp() }
        let context = ManagedObjectContext(coordinator: coordinator)
        let objects = try Self.seed(context)
        let ann = try #require(objects["Ann"]), cy = try #require(objects["Cy"])
        #expect(try ann.value(forKey: "salary") as? Int64 == 100)
        _ = try context.execute(
            BatchUpdateRequest(
                entityName: "Employee", predicate: try PredicateNode(format: "name == 'Ann'"), propertiesToUpdate: ["salary": .value(150)]))
        #expect(try ann.value(forKey: "salary") as? Int64 == 150)
        _ = try context.execute(Self.deleteRequest("Employee", "name == 'Cy'"))
        #expect(throws: ManagedObjectError.self) { try cy.value(forKey: "name") }
        #expect(throws: ContextError.self) { try context.existingObject(with: cy.objectID) }
        // D2's employees were reloaded: Max only.
        let d2 = try #require(objects["D2"])
        let members = try #require(try d2.value(forKey: "employees") as? Set<ManagedObject>)
        #expect(members.compactMap { try? $0.value(forKey: "name") as? String } == ["Max"])
    }

    @Test("a context following the coordinator merges the batch's deletes and updates")
    func followingContext() throws {
        let (coordinator, _, cleanUp) = try Self.coordinator()
        defer { cleanUp() }
        let writer = ManagedObjectContext(coordinator: coordinator)
        try Self.seed(writer)
        let reader = ManagedObjectContext(coordinator: coordinator)
        reader.automaticallyMergesChangesFromParent = true
        let people = try reader.fetch(FetchRequest(entityName: "Employee", sortDescriptors: [FetchSortDescriptor(keyPath: "name")]))
        #expect(try people.map { try $0.value(forKey: "salary") as? Int64 } == [100, 200, 300, 400])
        _ = try writer.execute(
            BatchUpdateRequest(
                entityName: "Employee", predicate: try PredicateNode(format: "salary < 250"),
                propertiesToUpdate: ["salary": .value(1)]))
        _ = try writer.execute(Self.deleteRequest("Employee", "name == 'Cy'"))
        reader.processPendingMerges()
        #expect(try people[0].value(forKey: "salary") as? Int64 == 1)
        #expect(try people[1].value(forKey: "salary") as? Int64 == 1)
        #expect(throws: ManagedObjectError.self) { try people[2].value(forKey: "salary") }
        #expect(try people[3].value(forKey: "salary") as? Int64 == 400)
    }

    @Test("a context holding no objects, with no followers, counts what it wrote without reading rows back")
    func countWithoutRows() throws {
        let (coordinator, _, cleanUp) = try Self.coordinator()
        defer { cleanUp() }
        try Self.seed(ManagedObjectContext(coordinator: coordinator))
        let fresh = ManagedObjectContext(coordinator: coordinator)
        var delete = try Self.deleteRequest("Employee", "salary < 250")
        delete.resultType = .count
        #expect(try fresh.execute(delete) == .count(2))
        // Ann and Bob left D1: its version grew once per employee removed (a trigger per row, as Core Data's).
        #expect(try Self.rows(coordinator, "SELECT ZNAME, Z_OPT FROM ZDEPARTMENT ORDER BY ZNAME") == [["D1", "3"], ["D2", "1"], ["D3", "1"]])
        var update = BatchUpdateRequest(entityName: "Employee", propertiesToUpdate: ["salary": .value(1)])
        update.resultType = .count
        #expect(try fresh.execute(update) == .count(2))
        #expect(
            try Self.rows(coordinator, "SELECT ZNAME, ZSALARY, Z_OPT FROM ZEMPLOYEE ORDER BY ZNAME")
                == [["Cy", "1", "2"], ["Max", "1", "2"]])
        #expect(try Self.rows(coordinator, "SELECT COUNT(*) FROM ZBADGE") == [["0"]])
    }

    @Test("optimistic locking: an object edited before a batch update conflicts at save, or merges per policy")
    func optimisticLocking() throws {
        let (coordinator, _, cleanUp) = try Self.coordinator()
        defer { cleanUp() }
        let context = ManagedObjectContext(coordinator: coordinator)
        let objects = try Self.seed(context)
        let ann = try #require(objects["Ann"])
        try ann.setValue("Annie", forKey: "name")
        _ = try context.execute(
            BatchUpdateRequest(
                entityName: "Employee", predicate: try PredicateNode(format: "name == 'Ann'"), propertiesToUpdate: ["salary": .value(999)]))
        // The unsaved edit survived the merge.
        #expect(try ann.value(forKey: "name") as? String == "Annie")
        #expect(throws: ContextError.self) { try context.save() }
        #expect(try Self.rows(coordinator, "SELECT ZNAME, ZSALARY, Z_OPT FROM ZEMPLOYEE WHERE ZNAME LIKE 'Ann%'") == [["Ann", "999", "2"]])
        context.mergePolicy = .mergeByPropertyObjectTrump
        try context.save()
        // The context's edit (name) and the batch's (salary) are both kept; the row version is 3.
        #expect(try Self.rows(coordinator, "SELECT ZNAME, ZSALARY, Z_OPT FROM ZEMPLOYEE WHERE ZNAME LIKE 'Ann%'") == [["Annie", "999", "3"]])
    }

    @Test("fetch limits choose the rows deleted, in sort order")
    func window() throws {
        let (coordinator, _, cleanUp) = try Self.coordinator()
        defer { cleanUp() }
        let context = ManagedObjectContext(coordinator: coordinator)
        try Self.seed(context)
        var fetch = FetchRequest(entityName: "Employee", sortDescriptors: [FetchSortDescriptor(keyPath: "salary", ascending: false)])
        fetch.fetchLimit = 2
        var request = BatchDeleteRequest(fetchRequest: fetch)
        request.resultType = .count
        #expect(try context.execute(request) == .count(2))
        #expect(try Self.rows(coordinator, "SELECT ZNAME FROM ZEMPLOYEE ORDER BY ZNAME") == [["Ann"], ["Bob"]])
    }
}
