import CDQIModel
import CDQIPredicate
import Foundation
import Testing

@testable import CDQIObjects
@testable import CDQISQLite
@testable import CDQIStore

/// `relationshipKeyPathsForPrefetching` and `returnsObjectsAsFaults`.
///
/// The tests prove what was loaded by emptying the store's tables behind the context's back after the
/// fetch: whatever the fetch loaded still reads; whatever it did not load can no longer be read.
@Suite("Fetch: prefetching and faults")
struct PrefetchTests {
    /// Developers: Ada (Swift, C), Brian (C), Grace (no language). Projects: Compiler (lead Ada, members
    /// Ada and Brian), Linker (lead Brian, member Grace), Docs (no lead, no member).
    private func savedTeam() throws -> (PersistentStoreCoordinator, URL, () -> Void) {
        let (coordinator, url, cleanUp) = try ContextTestSupport.fileCoordinator("Developers")
        let context = ManagedObjectContext(coordinator: coordinator)
        let swift = try ContextTestSupport.insert(context, "Language", ["name": "Swift"])
        let c = try ContextTestSupport.insert(context, "Language", ["name": "C"])
        let ada = try ContextTestSupport.insert(context, "Developer", ["firstName": "Ada", "lastName": "L", "languages": Set([swift, c])])
        let brian = try ContextTestSupport.insert(context, "Developer", ["firstName": "Brian", "lastName": "K", "languages": Set([c])])
        let grace = try ContextTestSupport.insert(context, "Developer", ["firstName": "Grace", "lastName": "H"])
        try ContextTestSupport.insert(context, "Project", ["name": "Compiler", "lead": ada, "members": Set([ada, brian])])
        try ContextTestSupport.insert(context, "Project", ["name": "Linker", "lead": brian, "members": Set([grace])])
        try ContextTestSupport.insert(context, "Project", ["name": "Docs"])
        try context.save()
        return (coordinator, url, cleanUp)
    }

    /// Deletes every row of every entity and join table, through a connection of its own.
    private func emptyTables(_ url: URL) throws {
        let connection = try SQLiteConnection(path: url.path)
        let tables = try ContextTestSupport.rows(
            connection,
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'Z%' AND name NOT IN ('Z_PRIMARYKEY', 'Z_METADATA', 'Z_MODELCACHE')")
        for table in tables { try connection.execute("DELETE FROM \(table[0])") }
    }

    private func name(_ object: ManagedObject?, _ key: String = "firstName") throws -> String? {
        try object?.value(forKey: key) as? String
    }

    private func projects(_ context: ManagedObjectContext, prefetching keyPaths: [String]) throws -> [String: ManagedObject] {
        var request = FetchRequest(entityName: "Project")
        request.relationshipKeyPathsForPrefetching = keyPaths
        let fetched = try context.fetch(request)
        return Dictionary(uniqueKeysWithValues: try fetched.map { (try name($0, "name") ?? "", $0) })
    }

    @Test("to-one, to-many and many-to-many steps are loaded with the fetch")
    func prefetchedRelationshipsRead() throws {
        let (coordinator, url, cleanUp) = try savedTeam()
        defer { cleanUp() }
        let context = ManagedObjectContext(coordinator: coordinator)
        let projects = try projects(context, prefetching: ["lead.ledProjects", "members.languages"])
        try emptyTables(url)

        #expect(try name(projects["Compiler"]?.value(forKey: "lead") as? ManagedObject) == "Ada")
        #expect(try name(projects["Linker"]?.value(forKey: "lead") as? ManagedObject) == "Brian")
        #expect(try projects["Docs"]?.value(forKey: "lead") == nil)
        let compilerMembers = try #require(try projects["Compiler"]?.value(forKey: "members") as? Set<ManagedObject>)
        #expect(Set(try compilerMembers.map { try name($0) }) == ["Ada", "Brian"])
        let docsMembers = try #require(try projects["Docs"]?.value(forKey: "members") as? Set<ManagedObject>)
        #expect(docsMembers.isEmpty)
        // members.languages: Ada knows Swift and C, Brian C, Grace nothing.
        var languages: [String: Set<String>] = [:]
        for member in compilerMembers {
            let known = try #require(try member.value(forKey: "languages") as? Set<ManagedObject>)
            languages[try name(member) ?? ""] = Set(try known.map { try name($0, "name") ?? "" })
        }
        #expect(languages == ["Ada": ["Swift", "C"], "Brian": ["C"]])
        // lead.ledProjects: Ada leads Compiler only.
        let ada = try #require(try projects["Compiler"]?.value(forKey: "lead") as? ManagedObject)
        let led = try #require(try ada.value(forKey: "ledProjects") as? Set<ManagedObject>)
        #expect(Set(try led.map { try name($0, "name") }) == ["Compiler"])
    }

    @Test("without prefetching the same reads find the rows gone (the test above is not vacuous)")
    func withoutPrefetchingTheRowsAreGone() throws {
        let (coordinator, url, cleanUp) = try savedTeam()
        defer { cleanUp() }
        let context = ManagedObjectContext(coordinator: coordinator)
        let projects = try projects(context, prefetching: [])
        try emptyTables(url)
        let lead = try #require(try projects["Compiler"]?.value(forKey: "lead") as? ManagedObject)
        #expect(lead.isFault)
        #expect(throws: (any Error).self) { try lead.value(forKey: "firstName") }
        let members = try projects["Compiler"]?.value(forKey: "members") as? Set<ManagedObject>
        #expect(members?.isEmpty == true)
    }

    @Test("returnsObjectsAsFaults = false fills objects even when unsaved changes are merged")
    func objectsNotFaults() throws {
        let (coordinator, _, cleanUp) = try savedTeam()
        defer { cleanUp() }
        let context = ManagedObjectContext(coordinator: coordinator)
        try ContextTestSupport.insert(context, "Developer", ["firstName": "Zed", "lastName": "Z"])
        // No sort: sorting in memory would read (and so fill) every object.
        var request = FetchRequest(entityName: "Developer")
        let faulted = try context.fetch(request)
        // With a pending insert the merged fetch returns saved developers as faults.
        #expect(faulted.filter(\.isFault).count == 3)
        context.reset()
        try ContextTestSupport.insert(context, "Developer", ["firstName": "Zed", "lastName": "Z"])
        request.returnsObjectsAsFaults = false
        let filled = try context.fetch(request)
        #expect(filled.count == 4)
        #expect(filled.allSatisfy { !$0.isFault })
        #expect(Set(try filled.map { try name($0) }) == ["Ada", "Brian", "Grace", "Zed"])
    }

    @Test("a prefetch key path that is not a relationship is an error naming it")
    func unknownKeyPath() throws {
        let (coordinator, _, cleanUp) = try savedTeam()
        defer { cleanUp() }
        let context = ManagedObjectContext(coordinator: coordinator)
        #expect(throws: PredicateSQLError.unknownKey(key: "leader", entity: "Project", keyPath: "leader")) {
            _ = try projects(context, prefetching: ["leader"])
        }
        #expect(throws: PredicateSQLError.unknownKey(key: "name", entity: "Project", keyPath: "name")) {
            _ = try projects(context, prefetching: ["name"])
        }
    }
}
