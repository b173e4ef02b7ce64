import CDQIModel
import CDQIPredicate
import Foundation
import Logging
import Testing

@testable import CDQIObjects
@testable import CDQISQLite
@testable import CDQIStore

/// The target split (issue 22): the object graph (`CDQIObjects`) imports no store, and reaches the
/// features only the SQLite store has through optional capabilities of the store, which a store
/// without them answers with `StoreError.unsupported`.
@Suite struct StoreCapabilityTests {
    /// Every Swift file of a target's folder.
    private static func swiftFiles(of target: String) throws -> [URL] {
        let folder = StoreTestSupport.packageRoot.appendingPathComponent("Sources/\(target)")
        let walker = try #require(FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil))
        return walker.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
    }

    @Test func theObjectGraphImportsNoStore() throws {
        let files = try Self.swiftFiles(of: "CDQIObjects")
        // The graph's own files are there (the check is not vacuous).
        #expect(files.contains { $0.lastPathComponent == "ManagedObjectContext.swift" })
        #expect(files.contains { $0.lastPathComponent == "PersistentStore.swift" })
        var offenders: [String] = []
        for file in files {
            for line in try String(contentsOf: file, encoding: .utf8).split(separator: "\n") {
                let words = line.split(separator: " ").map(String.init)
                guard let importIndex = words.firstIndex(of: "import"), importIndex + 1 < words.count else { continue }
                if ["CSQLite", "CDQISQLite", "CLibPQ", "CDQIPostgres", "CDQIStore"].contains(words[importIndex + 1]) {
                    offenders.append("\(file.lastPathComponent): \(line)")
                }
            }
        }
        #expect(offenders == [])
    }

    @Test func theSQLiteStoreHasEveryCapability() throws {
        let (coordinator, _, cleanUp) = try ContextTestSupport.fileCoordinator("Company")
        defer { cleanUp() }
        #expect(coordinator.store is any ExternalWriteDetecting)
        #expect(coordinator.store is any SingleTransactionWriting)
        #expect(coordinator.store is any SQLLogging)
        #expect(coordinator.store is any RowCursorOpening)
        // A store file gets the default pool of five readers; an in-memory store none.
        #expect(coordinator.readerCount == 5)
        let memory = try ContextTestSupport.memoryContext("Company").coordinator
        #expect(memory.readerCount == 0)
    }

    @Test func aStoreWithoutCapabilitiesSavesAndFetchesAndRefusesTheRestByName() throws {
        let (folder, cleanUp) = try StoreTestSupport.temporaryFolder()
        defer { cleanUp() }
        let url = folder.appendingPathComponent("Company.sqlite")
        let model = try StoreTestSupport.fixtureModel("Company")
        let sqlite = try SQLitePersistentStore(model: model, url: url, readOnly: false, readerCount: 2, keepsJournalMode: false)
        let coordinator = PersistentStoreCoordinator(model: model, store: PlainStore(sqlite), url: url)
        #expect(!(coordinator.store is any ExternalWriteDetecting))
        #expect(coordinator.readerCount == 0)
        // Logging SQL is a feature of the store: without it, nothing happens.
        coordinator.logSQL(to: Logger(label: "unused"))

        let context = ManagedObjectContext(coordinator: coordinator)
        for name in ["Ann", "Bob", "Cy"] {
            let employee = try context.insertNewObject(forEntityName: "Employee")
            try employee.setValue(name, forKey: "firstName")
            try employee.setValue("Lee", forKey: "lastName")
        }
        try context.save()

        // A cursor falls back to IDs (no reader of its own), and still walks every object.
        let reader = ManagedObjectContext(coordinator: coordinator)
        var request = FetchRequest(entityName: "Employee")
        request.sortDescriptors = [FetchSortDescriptor(keyPath: "firstName")]
        request.fetchBatchSize = 2
        let cursor = try reader.cursor(for: request)
        var names: [String] = []
        while let employee = try cursor.next() { names.append(try #require(employee.value(forKey: "firstName") as? String)) }
        #expect(names == ["Ann", "Bob", "Cy"])

        #expect(throws: StoreError.unsupported(path: url.path, operation: "detecting other processes' writes")) {
            try reader.refreshIfStoreChanged()
        }
        #expect(throws: StoreError.unsupported(path: url.path, operation: "this SQLite operation")) {
            try coordinator.inOneTransaction { 1 }
        }
    }
}

/// A store with the protocol's requirements only (forwarded to a SQLite store) and none of the
/// optional capabilities: what the object graph sees of a store that lacks them.
private final class PlainStore: PersistentStore, @unchecked Sendable {
    let base: SQLitePersistentStore

    init(_ base: SQLitePersistentStore) { self.base = base }

    var metadata: StoreMetadata { base.metadata }
    var schema: StoreSchema { base.schema }
    var dialect: SQLDialect { base.dialect }
    var location: String { base.location }

    func fetchObjectReferences(_ request: FetchRequest) throws -> [ObjectReference] { try base.fetchObjectReferences(request) }
    func count(_ request: FetchRequest) throws -> Int { try base.count(request) }
    func fetchDictionaries(_ request: FetchRequest) throws -> [[String: StoredValue]] { try base.fetchDictionaries(request) }
    func explain(_ request: FetchRequest) throws -> FetchExplanation { try base.explain(request) }

    func readObjects(
        _ request: FetchRequest, layout: EntityLayout, reader: inout RowObjectReader, into objects: inout [ManagedObject]
    ) throws {
        try base.readObjects(request, layout: layout, reader: &reader, into: &objects)
    }

    func readObjects(
        _ query: KeyedRowQuery, keys: [Int64], reader: inout RowObjectReader, into objects: inout [ManagedObject],
        _ each: (ManagedObject, Int64?) -> Void
    ) throws {
        try base.readObjects(query, keys: keys, reader: &reader, into: &objects, each)
    }

    func readReferences(_ query: KeyedRowQuery, keys: [Int64]) throws -> [(entityNumber: Int, key: Int64)] {
        try base.readReferences(query, keys: keys)
    }

    func readRow(of layout: EntityLayout, key: Int64) throws -> StoredRow? { try base.readRow(of: layout, key: key) }
    func write<T>(_ body: (any SaveTransaction) throws -> T) throws -> T { try base.write(body) }

    func runBatch(_ statement: SQLFragment, request: FetchRequest?, deleteRules: BatchDeleteRules?) throws -> BatchWriter.Written {
        try base.runBatch(statement, request: request, deleteRules: deleteRules)
    }
}
