import CDQIModel
import CDQIPostgres
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
/// ``importDocument(_:into:progress:)``).
///
/// A document in a file (``importDocument(contentsOf:into:progress:)``) is read twice, a chunk at a
/// time, and never held whole: once to check it (keeping of each object only its entity, its `_id` and
/// its references), once to insert its objects.
///
/// ```swift
/// let summary = try StoreImporter(model: model).importDocument(Data(json.utf8), into: storeURL)
/// summary.description   // "imported 2 objects: 1 Department, 1 Employee"
/// ```
public struct StoreImporter {
    /// The model of the store.
    public let model: ManagedObjectModel
    /// How many objects a batch holds at least, when the import saves in batches (see ``ImportBatches``).
    var batchSize = 5_000

    /// Creates an importer for a model.
    public init(model: ManagedObjectModel) {
        self.model = model
    }

    /// Checks a document without touching any store, and returns how many objects of each entity it holds.
    public func check(_ document: Data) throws(InterchangeError) -> ImportSummary {
        ImportSummary(try plan(BytesDocumentSource(Array(document))))
    }

    /// Checks the document in the file at `documentURL` (read a chunk at a time) without touching any
    /// store, and returns how many objects of each entity it holds.
    ///
    /// - Throws: ``InterchangeError/store(_:)`` ("cannot read the document: …") when the file cannot
    ///   be read, else as ``check(_:)``.
    public func check(contentsOf documentURL: URL) throws(InterchangeError) -> ImportSummary {
        ImportSummary(try plan(try FileDocumentSource(path: documentURL.path)))
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
        try importDocument(from: BytesDocumentSource(Array(document)), into: storeURL, progress: progress)
    }

    /// Imports the document in the file at `documentURL` into the store at `storeURL` (created when
    /// missing), as ``importDocument(_:into:progress:)`` does, reading the file a chunk at a time: the
    /// document is never held in memory whole.
    ///
    /// - Throws: ``InterchangeError/store(_:)`` ("cannot read the document: …") when the file cannot
    ///   be read, else as ``importDocument(_:into:progress:)``. A file that changes while it is imported
    ///   is refused (``InterchangeError/invalidDocument(_:)``) and nothing is imported.
    public func importDocument(
        contentsOf documentURL: URL, into storeURL: URL, progress: ((Int) -> Void)? = nil
    ) throws(InterchangeError) -> ImportSummary {
        try importDocument(from: try FileDocumentSource(path: documentURL.path), into: storeURL, progress: progress)
    }

    /// Imports the document in the file at `documentURL` into the store at `location`: a SQLite file
    /// as ``importDocument(contentsOf:into:progress:)`` does, or the store in a PostgreSQL schema
    /// (created when the schema holds none).
    ///
    /// Into PostgreSQL, the objects are saved by one save, which the store writes in one transaction on
    /// one connection: all of them are written, or none. A store this import created in an empty schema
    /// stays there (empty) when the save is refused.
    public func importDocument(
        contentsOf documentURL: URL, into location: StoreLocation, progress: ((Int) -> Void)? = nil
    ) throws(InterchangeError) -> ImportSummary {
        let source = try FileDocumentSource(path: documentURL.path)
        switch location {
        case .file(let storeURL):
            return try importDocument(from: source, into: storeURL, progress: progress)
        case .postgres(let url):
            return try importDocument(from: source, into: url, progress: progress)
        }
    }

    /// Imports a document into the store at `location`: a SQLite file, or a PostgreSQL schema (one
    /// save, one transaction: see the file-reading variant taking a ``StoreLocation``).
    public func importDocument(
        _ document: Data, into location: StoreLocation, progress: ((Int) -> Void)? = nil
    ) throws(InterchangeError) -> ImportSummary {
        let source = BytesDocumentSource(Array(document))
        switch location {
        case .file(let storeURL):
            return try importDocument(from: source, into: storeURL, progress: progress)
        case .postgres(let url):
            return try importDocument(from: source, into: url, progress: progress)
        }
    }

    private func importDocument(
        from source: DocumentSource, into url: PostgresURL, progress: ((Int) -> Void)?
    ) throws(InterchangeError) -> ImportSummary {
        let plan = try plan(source)
        let coordinator: PersistentStoreCoordinator
        do {
            coordinator = try StoreQuery.openCoordinator(model: model, url: url, creating: true)
        } catch {
            throw .store(error.description)
        }
        // One save: one transaction on one connection of the store's pool.
        try insertAndSave(
            plan, from: source, into: PersistentContainer(coordinator: coordinator), batched: false, location: url.description, progress: progress)
        return ImportSummary(plan)
    }

    private func importDocument(
        from source: DocumentSource, into storeURL: URL, progress: ((Int) -> Void)?
    ) throws(InterchangeError) -> ImportSummary {
        let plan = try plan(source)
        if !FileManager.default.fileExists(atPath: storeURL.path),
            try importIntoNewFile(plan, from: source, storeURL: storeURL, progress: progress)
        {
            return ImportSummary(plan)
        }
        try Self.checkUndamaged(storeURL)
        try insertAndSave(plan, from: source, storeURL: storeURL, progress: progress)
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
    private func importIntoNewFile(
        _ plan: ImportPlan, from source: DocumentSource, storeURL: URL, progress: ((Int) -> Void)?
    ) throws(InterchangeError) -> Bool {
        let folder = storeURL.deletingLastPathComponent()
        let scratch = folder.appendingPathComponent(".\(storeURL.lastPathComponent).cdqi-import-\(getpid())-\(UUID().uuidString)")
        defer {
            for suffix in ["", "-wal", "-shm", "-journal"] { unlink(scratch.path + suffix) }
        }
        do {
            try insertAndSave(plan, from: source, storeURL: scratch, progress: progress)
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

    private func plan(_ source: DocumentSource) throws(InterchangeError) -> ImportPlan {
        try DocumentReader(model: model).read(source).get()
    }

    /// Runs in its own scope so that the container (and its connection) is closed when it returns: a
    /// new store is complete in its file before it is linked into place.
    private func insertAndSave(
        _ plan: ImportPlan, from source: DocumentSource, storeURL: URL, progress: ((Int) -> Void)?
    ) throws(InterchangeError) {
        let container: PersistentContainer
        do {
            // An existing store keeps its journal mode: an import adds rows and changes nothing else,
            // and a refused one leaves a rollback-journal file byte for byte as it was.
            container = try PersistentContainer(model: model, url: storeURL, readerCount: 0, keepsJournalMode: true)
        } catch {
            throw .store(StoreQuery.naming(storeURL, error.description))
        }
        try insertAndSave(plan, from: source, into: container, batched: true, location: storeURL.path, progress: progress)
    }

    /// Inserts the plan's objects into the container's view context and saves them: in batches inside
    /// one SQLite transaction when `batched` and the plan is big enough, else by one save.
    private func insertAndSave(
        _ plan: ImportPlan, from source: DocumentSource, into container: PersistentContainer, batched: Bool, location: String,
        progress: ((Int) -> Void)?
    ) throws(InterchangeError) {
        let context = container.viewContext
        let batches = ImportBatches(plan, model: model, batchSize: batchSize)
        if batched && batches.isBatched {
            do {
                // Every batch's save is part of one transaction: all of them are written, or none.
                try container.coordinator.inOneTransaction {
                    var inserter = DocumentInserter(plan: plan, batches: batches, context: context, progress: progress)
                    try inserter.insertAll(from: source)
                    try Self.checkUnchanged(source)
                    do {
                        try context.save()
                    } catch let error as ContextError {
                        if case .validation = error { throw DocumentInserter.BatchRefused() }
                        throw error
                    }
                }
                return
            } catch is DocumentInserter.BatchRefused {
                // The store refused a batch: the import is redone as one save (and fails, rolled back
                // by it), which reports every problem with the document's names for the objects.
                context.reset()
            } catch {
                throw Self.failure(error, source: source, location: location)
            }
        }
        var inserter = DocumentInserter(plan: plan, batches: ImportBatches(single: plan), context: context, progress: progress)
        do {
            try inserter.insertAll(from: source)
            try Self.checkUnchanged(source)
        } catch {
            throw Self.failure(error, source: source, location: location)
        }
        do {
            _ = try context.save()
        } catch .validation(let failures) {
            let indexes = Dictionary(
                inserter.inserted.map { ($1.objectID.uriString, $0) }, uniquingKeysWith: { first, _ in first })
            throw .invalidDocument(failures.map { Self.problem($0, plan: plan, indexes: indexes) })
        } catch {
            throw .store(error.description)
        }
    }

    /// Refuses a document that is no longer the one that was checked.
    private static func checkUnchanged(_ source: DocumentSource) throws {
        if source.failure != nil || source.hasChanged { throw DocumentInserter.Changed() }
    }

    /// An error of inserting or saving, as the importer reports it.
    private static func failure(_ error: any Error, source: DocumentSource, location: String) -> InterchangeError {
        if let failure = source.failure { return .store(failure) }
        switch error {
        case let error as ContextError: return .store(error.description)
        // The document was checked, so this names a value the store layer refuses.
        case let error as ManagedObjectError: return .store(error.description)
        case let error as StoreError: return .store(error.description)
        case let error as SQLiteError: return .store(StoreError.classifying(error, path: location).description)
        case is DocumentInserter.Changed, is JSONParseError:
            return .invalidDocument([DocumentProblem(message: "the document changed while it was imported")])
        default: return .store("\(error)")
        }
    }

    /// A validation failure of the save, in the document's terms.
    private static func problem(_ failure: ValidationFailure, plan: ImportPlan, indexes: [String: Int]) -> DocumentProblem {
        let object = indexes[failure.objectID].map { plan.objects[$0] }
        func name(_ uri: String) -> String {
            guard let index = indexes[uri] else { return uri }
            let other = plan.objects[index]
            return "\(plan.entity(of: other).description.name) \(plan.label(of: other))"
        }
        var description = failure.description
        let subject = "\(failure.entityName).\(failure.key) of \(failure.objectID): "
        if description.hasPrefix(subject) { description.removeFirst(subject.count) }
        if case .notUnique(let properties, let other) = failure.problem {
            description = "\(name(other)) has the same \(properties.joined(separator: ", ")) (a uniqueness constraint)"
        }
        return DocumentProblem(
            entity: failure.entityName, object: object.map(plan.label(of:)) ?? failure.objectID, key: failure.key, message: description)
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
        // Entities enter the plan in the order the document first lists them.
        var counts = plan.entities.map { Count(entity: $0.description.name, count: 0) }
        for object in plan.objects { counts[object.entity].count += 1 }
        self.counts = counts.filter { $0.count > 0 }
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
