import CDQIModel
import CDQIPredicate
import CDQIStore
import Foundation

/// Imports an interchange document into a store, all or nothing.
///
/// The document is read and checked against the model first (see the README's "Store commands"); only a
/// document without problems reaches the store. Its objects are then inserted in document order (so
/// primary keys follow it) and saved in one transaction; a save the store refuses (a required value
/// missing, a uniqueness constraint, a count limit) writes nothing, and the problems are reported with
/// the document's `_id`s. A new store appears only complete, with the document in it (see
/// ``importDocument(_:into:)``).
///
/// ```swift
/// let summary = try StoreImporter(model: model).importDocument(Data(json.utf8), into: storeURL)
/// summary.description   // "imported 2 objects: 1 Department, 1 Employee"
/// ```
public struct StoreImporter {
    /// The model of the store.
    public let model: ManagedObjectModel

    /// Creates an importer for a model.
    public init(model: ManagedObjectModel) {
        self.model = model
    }

    /// Checks a document without touching any store, and returns how many objects of each entity it holds.
    public func check(_ document: Data) throws(InterchangeError) -> ImportSummary {
        ImportSummary(try plan(document))
    }

    /// Imports a document into the store at `storeURL` (created when missing).
    ///
    /// A missing store is built whole in a new file beside it and linked into place only if no file
    /// has appeared there meanwhile (`link(2)` fails rather than replace one): other processes never
    /// see a half-created store, and of several imports creating one store, the others import into the
    /// winner's. A failed import removes only the file it built; an existing store is never removed.
    ///
    /// `progress`, when given, is told how many objects have been inserted so far, every thousand objects
    /// (before the one save that writes them all).
    public func importDocument(
        _ document: Data, into storeURL: URL, progress: ((Int) -> Void)? = nil
    ) throws(InterchangeError) -> ImportSummary {
        let plan = try plan(document)
        if !FileManager.default.fileExists(atPath: storeURL.path),
            try importIntoNewFile(plan, storeURL: storeURL, progress: progress)
        {
            return ImportSummary(plan)
        }
        try Self.checkUndamaged(storeURL)
        try insertAndSave(plan, storeURL: storeURL, progress: progress)
        return ImportSummary(plan)
    }

    /// Refuses a store that `PRAGMA quick_check` finds damaged, before anything is written to it: SQLite
    /// does not notice every damaged page on its own, and writing into one spreads the damage.
    private static func checkUndamaged(_ storeURL: URL) throws(InterchangeError) {
        let size = (try? FileManager.default.attributesOfItem(atPath: storeURL.path)[.size] as? Int) ?? 0
        guard size > 0 else { return }  // An empty file becomes a new store.
        do {
            let connection = try SQLiteConnection(path: storeURL.path, mode: .readOnly)
            let statement = try connection.prepareUncached("PRAGMA quick_check(5)")
            var lines: [String] = []
            while try statement.step() { lines.append(statement.string(0)) }
            guard lines == ["ok"] else {
                throw StoreError.damagedStore(
                    path: storeURL.path,
                    reason: "PRAGMA quick_check found: \(lines.joined(separator: "; ")); nothing was imported (see 'cdqi check')")
            }
        } catch let error as StoreError {
            throw .store(error.description)
        } catch let error as SQLiteError {
            throw .store(StoreError.classifying(error, path: storeURL.path).description)
        } catch {
            throw .store("\(storeURL.path): \(error)")
        }
    }

    /// Builds the store in a scratch file in the store's folder and links it to `storeURL`; returns
    /// `false` (after removing the scratch file) when a store appeared there meanwhile.
    private func importIntoNewFile(_ plan: ImportPlan, storeURL: URL, progress: ((Int) -> Void)?) throws(InterchangeError) -> Bool {
        let folder = storeURL.deletingLastPathComponent()
        let scratch = folder.appendingPathComponent(".\(storeURL.lastPathComponent).cdqi-import-\(getpid())-\(UUID().uuidString)")
        defer {
            for suffix in ["", "-wal", "-shm", "-journal"] { unlink(scratch.path + suffix) }
        }
        do {
            try insertAndSave(plan, storeURL: scratch, progress: progress)
        } catch .store(let message) {
            // Messages name the file the user gave, not the scratch file.
            throw .store(message.replacingOccurrences(of: scratch.path, with: storeURL.path))
        }
        // The container is closed: its last connection checkpointed the log into the file.
        for suffix in ["-wal", "-journal"] where FileManager.default.fileExists(atPath: scratch.path + suffix) {
            throw .store("\(storeURL.path): the new store's \(suffix) file was left behind by SQLite; nothing was imported")
        }
        if link(scratch.path, storeURL.path) == 0 { return true }
        let code = errno
        guard code == EEXIST else {
            throw .store("\(storeURL.path): cannot create the store: \(String(cString: strerror(code)))")
        }
        return false
    }

    private func plan(_ document: Data) throws(InterchangeError) -> ImportPlan {
        let json: JSONValue
        do {
            json = try JSONParser.parse(Array(document))
        } catch {
            throw .syntax(error)
        }
        return try DocumentReader(model: model).read(json).get()
    }

    /// Runs in its own scope so that the container (and its connection) is closed when it returns: a
    /// new store is complete in its file before it is linked into place.
    private func insertAndSave(_ plan: ImportPlan, storeURL: URL, progress: ((Int) -> Void)?) throws(InterchangeError) {
        let container: PersistentContainer
        do {
            // An existing store keeps its journal mode: an import adds rows and changes nothing else,
            // and a refused one leaves a rollback-journal file byte for byte as it was.
            container = try PersistentContainer(model: model, url: storeURL, readerCount: 0, keepsJournalMode: true)
        } catch {
            throw .store(StoreQuery.naming(storeURL, error.description))
        }
        let context = container.viewContext
        var inserted: [ManagedObject] = []
        inserted.reserveCapacity(plan.objects.count)
        do {
            for object in plan.objects {
                let managed = try context.insertNewObject(forEntityName: object.entity)
                for (key, value) in object.attributes { try managed.setStoredValue(value, forKey: key) }
                inserted.append(managed)
                if inserted.count % 1_000 == 0 { progress?(inserted.count) }
            }
            for (index, object) in plan.objects.enumerated() {
                let managed = inserted[index]
                for (key, destination) in object.toOne { try managed.setValue(destination.map { inserted[$0] }, forKey: key) }
                for (key, members) in object.toMany { try managed.setValue(members.map { inserted[$0] }, forKey: key) }
            }
        } catch let error as ContextError {
            throw .store(error.description)
        } catch let error as ManagedObjectError {
            // The document was checked, so this names a value the store layer refuses.
            throw .store(error.description)
        } catch {
            throw .store("\(error)")
        }
        do {
            _ = try context.save()
        } catch .validation(let failures) {
            let labels = Dictionary(
                inserted.enumerated().map { ($1.objectID.uriString, plan.objects[$0]) }, uniquingKeysWith: { first, _ in first })
            throw .invalidDocument(failures.map { Self.problem($0, labels: labels) })
        } catch {
            throw .store(error.description)
        }
    }

    /// A validation failure of the save, in the document's terms.
    private static func problem(_ failure: ValidationFailure, labels: [String: ImportPlan.Object]) -> DocumentProblem {
        let object = labels[failure.objectID]
        func name(_ uri: String) -> String {
            guard let other = labels[uri] else { return uri }
            return "\(other.entity) \(other.label)"
        }
        var description = failure.description
        let subject = "\(failure.entityName).\(failure.key) of \(failure.objectID): "
        if description.hasPrefix(subject) { description.removeFirst(subject.count) }
        if case .notUnique(let properties, let other) = failure.problem {
            description = "\(name(other)) has the same \(properties.joined(separator: ", ")) (a uniqueness constraint)"
        }
        return DocumentProblem(
            entity: failure.entityName, object: object?.label ?? failure.objectID, key: failure.key, message: description)
    }
}

/// What an import inserted (or a check found): the number of objects of each entity, in document order.
public struct ImportSummary: Sendable, Hashable, CustomStringConvertible {
    /// Entity names and object counts, in the order the document first lists each entity.
    public var counts: [Count]

    /// One entity's count.
    public struct Count: Sendable, Hashable {
        /// The entity.
        public var entity: String
        /// The number of objects.
        public var count: Int
    }

    init(_ plan: ImportPlan) {
        var counts: [Count] = []
        for object in plan.objects {
            if let index = counts.firstIndex(where: { $0.entity == object.entity }) {
                counts[index].count += 1
            } else {
                counts.append(Count(entity: object.entity, count: 1))
            }
        }
        self.counts = counts
    }

    /// The total number of objects.
    public var total: Int { counts.reduce(0) { $0 + $1.count } }

    /// `3 objects: 1 Department, 2 Employee`.
    public var counted: String {
        let total = total == 1 ? "1 object" : "\(total) objects"
        guard !counts.isEmpty else { return total }
        return "\(total): " + counts.map { "\($0.count) \($0.entity)" }.joined(separator: ", ")
    }

    /// `imported 3 objects: 1 Department, 2 Employee`.
    public var description: String { "imported \(counted)" }
}
