import CDQIModel
import CDQIPredicate
import Foundation
import Testing

@testable import CDQIObjects
@testable import CDQISQLite
@testable import CDQIStore

/// The `Z_OPT` bumps of a batch delete on SQLite (Nullify of a to-one whose inverse is a to-many): the
/// triggers count them and the store adds each destination's count once after the `DELETE`
/// (`DeleteRuleBumps`). The versions must end as Core Data's per-row `UPDATE`s leave them: one per
/// deleted row naming the destination, none for a destination the batch deletes too. Expected values are
/// worked out from the rows `BatchRequestTests.seed` saves (every saved row starts at `Z_OPT` 1).
@Suite("Batch delete version bumps")
struct BatchDeleteBumpTests {
    @Test("each destination grows once per deleted row naming it, and the changed ones are reported")
    func bumpsPerDestination() throws {
        let (coordinator, _, cleanUp) = try BatchRequestTests.coordinator()
        defer { cleanUp() }
        let context = ManagedObjectContext(coordinator: coordinator)
        let objects = try BatchRequestTests.seed(context)
        // Ann, Bob (D1) and Cy (D2), not Max (400).
        var request = try BatchRequestTests.deleteRequest("Employee", "salary < 350")
        request.resultType = .objectIDs
        let ids = try ["Ann", "Bob", "Cy"].map { try #require(objects[$0]?.objectID) }
        guard case .objectIDs(let deleted) = try context.execute(request) else {
            Issue.record("expected object IDs")
            return
        }
        #expect(Set(deleted) == Set(ids))
        #expect(
            try BatchRequestTests.rows(coordinator, "SELECT ZNAME, Z_OPT FROM ZDEPARTMENT ORDER BY ZNAME")
                == [["D1", "3"], ["D2", "2"], ["D3", "1"]])
        // D2 was reported changed, so the registered D2 reads its employees again: Max only.
        let d2 = try #require(objects["D2"])
        let members = try #require(try d2.value(forKey: "employees") as? Set<ManagedObject>)
        #expect(members.compactMap { try? $0.value(forKey: "name") as? String } == ["Max"])
        // Nothing of the batch stays on the connection: no trigger, no table, no function.
        #expect(try BatchRequestTests.rows(coordinator, "SELECT name FROM sqlite_temp_master") == [])
        #expect(throws: SQLiteError.self) { try BatchRequestTests.rows(coordinator, "SELECT cdqi_batch_bump(0, 1)") }
    }

    @Test("a destination the same batch deletes takes no bump; a surviving one takes one per deleted child")
    func destinationDeletedToo() throws {
        let (coordinator, _, cleanUp) = try BatchRequestTests.coordinator()
        defer { cleanUp() }
        let context = ManagedObjectContext(coordinator: coordinator)
        let root = try ContextTestSupport.insert(context, "Node", ["name": "root"])
        let a = try ContextTestSupport.insert(context, "Node", ["name": "a", "parent": root])
        try ContextTestSupport.insert(context, "Node", ["name": "a1", "parent": a])
        try ContextTestSupport.insert(context, "Node", ["name": "b", "parent": root])
        let c = try ContextTestSupport.insert(context, "Node", ["name": "c", "parent": root])
        try ContextTestSupport.insert(context, "Node", ["name": "c1", "parent": c])
        try context.save()
        // a and b go (a1 by the cascade, its bump of a lost with a); c and c1 stay. root grows by two.
        var request = try BatchRequestTests.deleteRequest("Node", "name IN %@", ["a", "b"])
        request.resultType = .count
        #expect(try context.execute(request) == .count(2))
        #expect(
            try BatchRequestTests.rows(coordinator, "SELECT ZNAME, Z_OPT FROM ZNODE ORDER BY ZNAME")
                == [["c", "1"], ["c1", "1"], ["root", "3"]])
        // Deleting c1 and its parent c in one batch: c's bump by c1 (either order) is lost with c; root
        // grows once more, for c.
        #expect(try context.execute(BatchRequestTests.deleteRequest("Node", "name BEGINSWITH %@", "c")) == .status(true))
        #expect(try BatchRequestTests.rows(coordinator, "SELECT ZNAME, Z_OPT FROM ZNODE ORDER BY ZNAME") == [["root", "4"]])
    }

    @Test("a key stored as a real or as text names its row as Z_PK = key would; a fraction or a word names none")
    func keysOfOtherTypes() throws {
        let (coordinator, _, cleanUp) = try BatchRequestTests.coordinator()
        defer { cleanUp() }
        try BatchRequestTests.seed(ManagedObjectContext(coordinator: coordinator))
        // Written past the context: Ann names D1 in words, Bob names D1 as a real (stored as the integer,
        // by the column's affinity), Cy names D2 plus a half (no row).
        for (name, key) in [
            ("Ann", "CAST(d.Z_PK AS TEXT) || ' x'"), ("Bob", "CAST(d.Z_PK AS REAL)"),
            ("Cy", "(SELECT Z_PK FROM ZDEPARTMENT WHERE ZNAME = 'D2') + 0.5"),
        ] {
            _ = try BatchRequestTests.rows(
                coordinator,
                "UPDATE ZEMPLOYEE SET ZDEPARTMENT = (SELECT \(key) FROM ZDEPARTMENT d WHERE d.ZNAME = 'D1') WHERE ZNAME = '\(name)'")
        }
        #expect(
            try BatchRequestTests.rows(coordinator, "SELECT ZNAME, typeof(ZDEPARTMENT) FROM ZEMPLOYEE WHERE ZNAME < 'D' ORDER BY ZNAME")
                == [["Ann", "text"], ["Bob", "integer"], ["Cy", "real"]])
        var request = try BatchRequestTests.deleteRequest("Employee", "salary < 350")
        request.resultType = .count
        #expect(try ManagedObjectContext(coordinator: coordinator).execute(request) == .count(3))
        // Only Bob's row named a department: D1 grows once.
        #expect(
            try BatchRequestTests.rows(coordinator, "SELECT ZNAME, Z_OPT FROM ZDEPARTMENT ORDER BY ZNAME")
                == [["D1", "2"], ["D2", "1"], ["D3", "1"]])
    }
}
