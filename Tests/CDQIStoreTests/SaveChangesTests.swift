@testable import CDQIStore
import Testing

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
}
