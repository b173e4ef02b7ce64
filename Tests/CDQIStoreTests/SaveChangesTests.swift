import Testing

@testable import CDQIObjects
@testable import CDQISQLite
@testable import CDQIStore

/// The IDs a save returns: listed by the save, read as sets.
@Suite("Save changes")
struct SaveChangesTests {
    @Test("a save's lists read as sets, compare and hash like sets, and change through their setters")
    func listsReadAsSets() throws {
        let ids = (1...6).map(try ContextTestSupport.employeeIDs().id)
        let listed = SaveChanges(inserted: [ids[0], ids[1]], updated: [ids[2]], deleted: [ids[3], ids[4]])
        let fromSets = SaveChanges(inserted: [ids[1], ids[0]], updated: [ids[2]], deleted: [ids[4], ids[3]])
        #expect(!listed.isEmpty)
        #expect(listed.updatedAndDeleted.updated == [ids[2]] && listed.updatedAndDeleted.deleted == [ids[3], ids[4]])
        #expect(listed.inserted == [ids[0], ids[1]] && listed.updated == [ids[2]] && listed.deleted == [ids[3], ids[4]])
        #expect(listed == fromSets && listed.hashValue == fromSets.hashValue)
        var changed = listed
        changed.updated.insert(ids[5])
        #expect(changed.updated == [ids[2], ids[5]] && listed.updated == [ids[2]])
        #expect(changed != listed)
        #expect(SaveChanges(inserted: [], updated: [], deleted: []).isEmpty && SaveChanges().isEmpty)
    }

    @Test("a save's changes are read from several tasks at once")
    func concurrentReads() async throws {
        let ids = (1...1_000).map(try ContextTestSupport.employeeIDs().id)
        let changes = SaveChanges(inserted: ids, updated: [], deleted: [])
        let counts = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<8 { group.addTask { changes.inserted.count } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(counts == Array(repeating: 1_000, count: 8))
    }

    @Test("a save's changes name the saved objects' permanent IDs, read in other tasks after the context is gone")
    func changesOutliveTheContext() async throws {
        let (coordinator, _, cleanUp) = try ContextTestSupport.fileCoordinator("Company")
        defer { cleanUp() }
        let (changes, expected) = try Self.saveInsertsUpdatesAndDeletes(coordinator)
        let read = await Task.detached { (changes.inserted, changes.updated, changes.deleted) }.value
        #expect(read.0 == expected.inserted && read.1 == expected.updated && read.2 == expected.deleted)
        #expect(read.0.allSatisfy { !$0.isTemporaryID } && read.0.count == 2)
    }

    /// Saves two departments, then a change to one and the other's deletion, in a context released
    /// before returning: the second save's changes and the IDs it must name (each worked out from the
    /// rows the store holds, not from the changes).
    private static func saveInsertsUpdatesAndDeletes(
        _ coordinator: PersistentStoreCoordinator
    ) throws
        -> (changes: SaveChanges, expected: (inserted: Set<ManagedObjectID>, updated: Set<ManagedObjectID>, deleted: Set<ManagedObjectID>))
    {
        let context = ManagedObjectContext(coordinator: coordinator)
        let kept = try ContextTestSupport.insert(context, "Department", ["name": "Kept"])
        let gone = try ContextTestSupport.insert(context, "Department", ["name": "Gone"])
        try context.save()
        try kept.setValue("Renamed", forKey: "name")
        try context.delete(gone)
        let added = try (0..<2).map { try ContextTestSupport.insert(context, "Employee", ["firstName": "E\($0)", "lastName": "L"]) }
        let changes = try context.save()
        let keys = try ContextTestSupport.rows(coordinator, "SELECT Z_PK FROM ZEMPLOYEE ORDER BY Z_PK").map { $0[0] }
        #expect(keys == ["1", "2"])
        let inserted = Set(added.map(\.objectID))
        #expect(Set(inserted.compactMap { $0.primaryKey.map(String.init) }) == Set(keys))
        return (changes, (inserted, [kept.objectID], [gone.objectID]))
    }

    @Test("a save's changes read in another task while the context saves again and resets")
    func changesReadWhileTheContextGoesOn() async throws {
        let (coordinator, _, cleanUp) = try ContextTestSupport.fileCoordinator("Company")
        defer { cleanUp() }
        let context = ManagedObjectContext(coordinator: coordinator)
        let objects = try (0..<200).map { try ContextTestSupport.insert(context, "Department", ["name": "D\($0)"]) }
        let changes = try context.save()
        let reader = Task.detached { (0..<50).map { _ in changes.inserted.count } }
        for (index, object) in objects.enumerated() { try object.setValue("E\(index)", forKey: "name") }
        try context.save()
        context.reset()
        #expect(await reader.value == Array(repeating: 200, count: 50))
    }
}
