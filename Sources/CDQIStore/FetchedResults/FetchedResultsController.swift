import CDQIPredicate
import Foundation

/// Keeps the results of a fetch request up to date as the context's objects change, in sections, and
/// tells a delegate what changed row by row (Core Data's `NSFetchedResultsController`).
///
/// The request needs at least one sort descriptor; with a `sectionNameKeyPath`, the first sort
/// descriptor must order the objects like that key path (the sections are runs of equal section
/// names in the sorted results). A nil section value is the section `""`.
///
/// **Tracking.** After ``performFetch()``, while ``delegate`` is set, each processing of the
/// context's changes (``ManagedObjectContext/processPendingChanges()``: before a fetch, at a save,
/// after `perform`) and each merge of changes from elsewhere updates the results *incrementally*: only
/// the changed objects are looked at. The predicate is evaluated in memory for each of them, and those
/// that enter, leave or move are placed by binary search on the sort keys; nothing is fetched again.
/// An object whose sort or section key changed is reported as a move, lowered to an update when its
/// position relative to the unchanged objects stayed the same (never a "move from X to X"). Objects
/// refreshed by a merge count as if every key changed. Without a delegate the results are a snapshot.
///
/// Differences from Core Data: `cacheName` is accepted and ignored (there is no disk cache); a fetch
/// limit or offset is refused; predicates and sort keys through relationships are re-evaluated only
/// when the fetched object itself changed (as in Core Data). After ``ManagedObjectContext/reset()``
/// nothing is reported: call ``performFetch()`` again.
///
/// ```swift
/// var request = FetchRequest(entityName: "Item")
/// request.sortDescriptors = [FetchSortDescriptor(keyPath: "group"), FetchSortDescriptor(keyPath: "rank")]
/// let controller = FetchedResultsController(
///     fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: "group", cacheName: nil)
/// controller.delegate = tableUpdater
/// try controller.performFetch()
/// ```
public final class FetchedResultsController: ContextChangeObserver {
    /// The request, as given.
    public let fetchRequest: FetchRequest
    /// The context fetched from and watched.
    public let managedObjectContext: ManagedObjectContext
    /// The key path whose value names an object's section, or `nil` for one section.
    public let sectionNameKeyPath: String?
    /// The cache name given (no cache is kept).
    public let cacheName: String?
    /// Told about changes; the controller tracks changes only while it has one. Not retained.
    public weak var delegate: (any FetchedResultsControllerDelegate)?

    /// One result: the object, its sort keys and section name as it was placed.
    struct Entry {
        let object: ManagedObject
        let keys: [StoredValue]
        let section: String
    }

    /// The results in order; `nil` before the first fetch.
    private var entries: [Entry]?
    /// Each result's position in `entries`.
    private var positions: [ObjectIdentifier: Int] = [:]
    /// The sections as runs of `entries`.
    private var sectionRuns: [(name: String, range: Range<Int>)] = []
    /// The top-level keys the sort descriptors and section key path read.
    private let keyNames: Set<String>

    /// Creates a controller; nothing is fetched until ``performFetch()``.
    public init(
        fetchRequest: FetchRequest, managedObjectContext: ManagedObjectContext, sectionNameKeyPath: String?,
        cacheName: String?
    ) {
        self.fetchRequest = fetchRequest
        self.managedObjectContext = managedObjectContext
        self.sectionNameKeyPath = sectionNameKeyPath
        self.cacheName = cacheName
        var names = Set(fetchRequest.sortDescriptors.compactMap { $0.keyPath.split(separator: ".").first.map(String.init) })
        if let key = sectionNameKeyPath?.split(separator: ".").first { names.insert(String(key)) }
        keyNames = names
    }

    deinit {
        managedObjectContext.removeChangeObserver(self)
    }

    // MARK: Fetching

    /// Fetches the results (the context's unsaved changes included) and starts tracking them.
    /// - Throws: ``FetchedResultsControllerError`` for a request without sort descriptors or with a
    ///   window, or what ``ManagedObjectContext/fetch(_:)`` throws.
    public func performFetch() throws {
        guard !fetchRequest.sortDescriptors.isEmpty else {
            throw FetchedResultsControllerError.missingSortDescriptors(entity: fetchRequest.entityName)
        }
        guard fetchRequest.fetchLimit <= 0, fetchRequest.fetchOffset <= 0 else {
            throw FetchedResultsControllerError.windowNotSupported(entity: fetchRequest.entityName)
        }
        // Changes processed by the fetch itself are reported against the old results first.
        let objects = try managedObjectContext.fetch(fetchRequest)
        var fetched: [Entry] = []
        fetched.reserveCapacity(objects.count)
        for object in objects { fetched.append(try entry(for: object)) }
        install(fetched)
        managedObjectContext.addChangeObserver(self)
        delegate?.controller(self, didChangeContentWith: snapshot(reloaded: []))
    }

    private func entry(for object: ManagedObject) throws -> Entry {
        var keys: [StoredValue] = []
        keys.reserveCapacity(fetchRequest.sortDescriptors.count)
        for descriptor in fetchRequest.sortDescriptors {
            keys.append(try InMemoryOrder.value(of: object, at: descriptor.keyPath))
        }
        let section = try sectionNameKeyPath.map { Self.sectionName(try InMemoryOrder.value(of: object, at: $0)) } ?? ""
        return Entry(object: object, keys: keys, section: section)
    }

    /// The name of a section value, as Core Data makes it: its description; an object's URI; `""` for nil.
    static func sectionName(_ value: StoredValue) -> String {
        switch value {
        case .null: ""
        case .string(let string): string
        case .integer(let integer): String(integer)
        case .double(let double): String(double)
        case .bool(let bool): bool ? "1" : "0"
        case .decimal(let decimal): "\(decimal)"
        case .date(let seconds): "\(Date(timeIntervalSinceReferenceDate: seconds))"
        case .uuid(let uuid): uuid.uuidString
        case .uri(let url): url.absoluteString
        case .objectID(let reference): reference.uriString
        default: "\(value)"
        }
    }

    private func install(_ list: [Entry]) {
        entries = list
        positions = Dictionary(uniqueKeysWithValues: list.enumerated().map { (ObjectIdentifier($1.object), $0) })
        sectionRuns = Self.runs(of: list, sectioned: sectionNameKeyPath != nil)
    }

    private static func runs(of list: [Entry], sectioned: Bool) -> [(name: String, range: Range<Int>)] {
        guard sectioned else { return [("", 0..<list.count)] }
        var runs: [(name: String, range: Range<Int>)] = []
        var start = 0
        for index in list.indices where index == list.count - 1 || list[index + 1].section != list[index].section {
            runs.append((list[index].section, start..<(index + 1)))
            start = index + 1
        }
        return runs
    }

    // MARK: Results

    /// The results in order, or `nil` before ``performFetch()``.
    public var fetchedObjects: [ManagedObject]? { entries?.map(\.object) }

    /// The sections (one, possibly empty, without a section key path), or `nil` before ``performFetch()``.
    public var sections: [FetchedResultsSectionInfo]? {
        guard let entries else { return nil }
        return sectionRuns.map { run in
            FetchedResultsSectionInfo(
                name: run.name, indexTitle: title(forSectionName: run.name), objects: entries[run.range].map(\.object))
        }
    }

    /// The index titles of the sections, in order, each once.
    public var sectionIndexTitles: [String] {
        var titles: [String] = []
        for run in sectionRuns {
            if let title = title(forSectionName: run.name), !titles.contains(title) { titles.append(title) }
        }
        return titles
    }

    /// The section whose index title is `title`, at position `index` of ``sectionIndexTitles``: the
    /// first section with that title, or `nil`.
    public func section(forSectionIndexTitle title: String, at index: Int) -> Int? {
        guard sectionIndexTitles.indices.contains(index), sectionIndexTitles[index] == title else { return nil }
        return sectionRuns.firstIndex { self.title(forSectionName: $0.name) == title }
    }

    /// The default index title of a section: the uppercased first character of its name; `nil` for `""`.
    public func sectionIndexTitle(forSectionName sectionName: String) -> String? {
        sectionName.first.map { String($0).uppercased() }
    }

    private func title(forSectionName name: String) -> String? {
        if let delegate { return delegate.controller(self, sectionIndexTitleForSectionName: name) }
        return sectionIndexTitle(forSectionName: name)
    }

    /// The object at `[section, row]`, or `nil` when there is none (Core Data raises instead).
    public func object(at indexPath: IndexPath) -> ManagedObject? {
        guard indexPath.count == 2, let entries, sectionRuns.indices.contains(indexPath[0]) else { return nil }
        let run = sectionRuns[indexPath[0]].range
        let row = indexPath[1]
        guard row >= 0, row < run.count else { return nil }
        return entries[run.lowerBound + row].object
    }

    /// The `[section, row]` of an object, or `nil` when it is not in the results.
    public func indexPath(forObject object: ManagedObject) -> IndexPath? {
        guard let position = positions[ObjectIdentifier(object)] else { return nil }
        return indexPath(ofPosition: position, in: sectionRuns)
    }

    private func indexPath(ofPosition position: Int, in runs: [(name: String, range: Range<Int>)]) -> IndexPath? {
        // Binary search over the runs (they are in order and cover the list).
        var low = 0, high = runs.count - 1
        while low <= high {
            let middle = (low + high) / 2
            let range = runs[middle].range
            if position < range.lowerBound {
                high = middle - 1
            } else if position >= range.upperBound {
                low = middle + 1
            } else {
                return IndexPath(indexes: [middle, position - range.lowerBound])
            }
        }
        return nil
    }

    private func snapshot(reloaded: Set<ManagedObjectID>) -> FetchedResultsSnapshot {
        let list = entries ?? []
        return FetchedResultsSnapshot(
            sectionNames: sectionRuns.map(\.name), items: sectionRuns.map { list[$0.range].map(\.object.objectID) },
            reloadedItemIdentifiers: reloaded)
    }

    // MARK: Tracking

    func context(_ context: ManagedObjectContext, didSave changes: SaveChanges) {}

    func context(_ context: ManagedObjectContext, didChange change: ObjectsDidChange) {
        guard delegate != nil, entries != nil, !change.invalidatedAll else { return }
        do {
            try apply(change)
        } catch {
            // An object the predicate or sort cannot evaluate: fetch everything again, and say only
            // that the content changed.
            delegate?.controllerWillChangeContent(self)
            if let objects = try? managedObjectContext.fetchMatchingObjectsWithoutProcessing(fetchRequest),
                let fetched = try? objects.map({ try entry(for: $0) })
            {
                install(fetched)
            }
            delegate?.controllerDidChangeContent(self)
        }
    }

    private func belongs(_ object: ManagedObject) -> Bool {
        fetchRequest.includesSubentities
            ? object.entity.lineage.contains(fetchRequest.entityName) : object.entity.name == fetchRequest.entityName
    }

    private enum Kind {
        case insert, delete, keyChange, update
    }

    private func apply(_ change: ObjectsDidChange) throws {
        guard let old = entries, let delegate else { return }
        var kinds: [ObjectIdentifier: Kind] = [:]
        var placed: [Entry] = []
        func consider(_ object: ManagedObject, refreshed: Bool) throws {
            let key = ObjectIdentifier(object)
            guard kinds[key] == nil, belongs(object) else { return }
            let wasIn = positions[key] != nil
            var isIn = !object.isDeleted && object.managedObjectContext === managedObjectContext
            if isIn, let predicate = fetchRequest.predicate { isIn = try predicate.evaluate(with: object) }
            switch (wasIn, isIn) {
            case (false, true):
                kinds[key] = .insert
                placed.append(try entry(for: object))
            case (true, false):
                kinds[key] = .delete
            case (true, true):
                if refreshed || !change.changedKeys(of: object).isDisjoint(with: keyNames) {
                    kinds[key] = .keyChange
                    placed.append(try entry(for: object))
                } else {
                    kinds[key] = .update
                }
            case (false, false):
                break
            }
        }
        for object in change.deleted.union(change.invalidated) {
            let key = ObjectIdentifier(object)
            if positions[key] != nil { kinds[key] = .delete }
        }
        for object in change.inserted { try consider(object, refreshed: false) }
        for object in change.updated { try consider(object, refreshed: false) }
        for object in change.refreshed { try consider(object, refreshed: true) }
        for id in change.mergedInsertedIDs {
            let object = managedObjectContext.object(with: id)
            guard !object.isDeleted else { continue }
            do {
                try consider(object, refreshed: true)
            } catch let error as ManagedObjectError {
                // Deleted again since: not a result.
                if case .faultNotFulfilled = error { continue }
                throw error
            }
        }
        guard !kinds.isEmpty else { return }

        // The new list: the kept entries in their order, merged with the placed ones in sort order.
        let order = EntryOrder(descriptors: fetchRequest.sortDescriptors)
        placed.sort(by: order.precedes)
        var new: [Entry] = []
        new.reserveCapacity(old.count + placed.count)
        var next = 0
        for entry in old {
            switch kinds[ObjectIdentifier(entry.object)] {
            case .delete?, .keyChange?: continue
            default: break
            }
            while next < placed.count, order.precedes(placed[next], entry) {
                new.append(placed[next])
                next += 1
            }
            new.append(entry)
        }
        new.append(contentsOf: placed[next...])

        let oldRuns = sectionRuns
        let oldPositions = positions
        install(new)
        let newRuns = sectionRuns

        // Moves lowered to updates: those whose place among the unchanged objects stayed the same.
        let lowered = Self.loweredMoves(old: old, new: new, kinds: kinds)

        var deletes: [(ManagedObject, IndexPath)] = []
        var inserts: [(ManagedObject, IndexPath)] = []
        var changes: [(ManagedObject, IndexPath, IndexPath?, FetchedResultsChangeType)] = []
        var reloaded: Set<ManagedObjectID> = []
        for (key, kind) in kinds {
            let oldPath = oldPositions[key].flatMap { indexPath(ofPosition: $0, in: oldRuns) }
            let newPosition = positions[key]
            let newPath = newPosition.flatMap { indexPath(ofPosition: $0, in: newRuns) }
            let object = newPosition.map { new[$0].object } ?? oldPositions[key].map { old[$0].object }
            guard let object else { continue }
            switch kind {
            case .delete:
                if let oldPath { deletes.append((object, oldPath)) }
            case .insert:
                if let newPath { inserts.append((object, newPath)) }
            case .update:
                if let oldPath, let newPath { changes.append((object, oldPath, newPath, .update)) }
                reloaded.insert(object.objectID)
            case .keyChange:
                guard let oldPath, let newPath else { continue }
                if lowered.contains(key) {
                    changes.append((object, oldPath, oldPath == newPath ? nil : newPath, .update))
                } else {
                    changes.append((object, oldPath, newPath, .move))
                }
                reloaded.insert(object.objectID)
            }
        }
        let oldNames = Set(oldRuns.map(\.name)), newNames = Set(newRuns.map(\.name))
        let sectioned = sectionNameKeyPath != nil
        let sectionInserts = sectioned ? newRuns.indices.filter { !oldNames.contains(newRuns[$0].name) } : []
        let sectionDeletes = sectioned ? oldRuns.indices.filter { !newNames.contains(oldRuns[$0].name) } : []

        delegate.controllerWillChangeContent(self)
        for (object, path) in deletes.sorted(by: { $0.1 < $1.1 }) {
            delegate.controller(self, didChange: object, at: path, for: .delete, newIndexPath: nil)
        }
        for index in sectionInserts {
            let run = newRuns[index]
            let info = FetchedResultsSectionInfo(
                name: run.name, indexTitle: title(forSectionName: run.name), objects: new[run.range].map(\.object))
            delegate.controller(self, didChange: info, atSectionIndex: index, for: .insert)
        }
        for index in sectionDeletes {
            let run = oldRuns[index]
            let info = FetchedResultsSectionInfo(
                name: run.name, indexTitle: title(forSectionName: run.name), objects: old[run.range].map(\.object))
            delegate.controller(self, didChange: info, atSectionIndex: index, for: .delete)
        }
        for (object, path) in inserts.sorted(by: { $0.1 < $1.1 }) {
            delegate.controller(self, didChange: object, at: nil, for: .insert, newIndexPath: path)
        }
        for (object, oldPath, newPath, type) in changes.sorted(by: { $0.1 < $1.1 }) {
            delegate.controller(self, didChange: object, at: oldPath, for: type, newIndexPath: newPath)
        }
        delegate.controllerDidChangeContent(self)
        delegate.controller(self, didChangeContentWith: snapshot(reloaded: reloaded))
        if !sectioned, let difference = Self.difference(old: old, new: new, oldPositions: oldPositions, positions: positions, kinds: kinds) {
            delegate.controller(self, didChangeContentWith: difference)
        }
    }

    /// The key-changed objects (kept in the same section) that can be reported as updates: those
    /// whose number of unchanged objects before them is the same before and after, when the lowered
    /// objects sharing a gap between unchanged objects also keep their order.
    private static func loweredMoves(old: [Entry], new: [Entry], kinds: [ObjectIdentifier: Kind]) -> Set<ObjectIdentifier> {
        func ranks(_ list: [Entry], skipping skipped: Kind) -> [ObjectIdentifier: (rank: Int, order: Int, section: String)] {
            var result: [ObjectIdentifier: (rank: Int, order: Int, section: String)] = [:]
            var fixed = 0, order = 0
            for entry in list {
                let key = ObjectIdentifier(entry.object)
                switch kinds[key] {
                case skipped?: continue
                case .keyChange?:
                    result[key] = (fixed, order, entry.section)
                    order += 1
                default:
                    fixed += 1
                }
            }
            return result
        }
        let before = ranks(old, skipping: .delete)
        let after = ranks(new, skipping: .insert)
        var groups: [Int: [ObjectIdentifier]] = [:]
        for (key, then) in before {
            guard let now = after[key], now.rank == then.rank, now.section == then.section else { continue }
            groups[then.rank, default: []].append(key)
        }
        var lowered: Set<ObjectIdentifier> = []
        for members in groups.values {
            let oldOrder = members.sorted { (before[$0]?.order ?? 0) < (before[$1]?.order ?? 0) }
            let newOrder = members.sorted { (after[$0]?.order ?? 0) < (after[$1]?.order ?? 0) }
            if oldOrder == newOrder { lowered.formUnion(members) }
        }
        return lowered
    }

    /// The change as a collection difference over IDs: deletes removed, inserts inserted, updated and
    /// moved objects removed and inserted again (associated).
    private static func difference(
        old: [Entry], new: [Entry], oldPositions: [ObjectIdentifier: Int], positions: [ObjectIdentifier: Int],
        kinds: [ObjectIdentifier: Kind]
    ) -> CollectionDifference<ManagedObjectID>? {
        var steps: [CollectionDifference<ManagedObjectID>.Change] = []
        for (key, kind) in kinds {
            let from = oldPositions[key], to = positions[key]
            switch kind {
            case .delete:
                if let from { steps.append(.remove(offset: from, element: old[from].object.objectID, associatedWith: nil)) }
            case .insert:
                if let to { steps.append(.insert(offset: to, element: new[to].object.objectID, associatedWith: nil)) }
            case .update, .keyChange:
                guard let from, let to else { continue }
                steps.append(.remove(offset: from, element: old[from].object.objectID, associatedWith: to))
                steps.append(.insert(offset: to, element: new[to].object.objectID, associatedWith: from))
            }
        }
        return CollectionDifference(steps)
    }
}

/// The order of results: by their sort keys, ties by object ID as fetches break them.
struct EntryOrder {
    let descriptors: [FetchSortDescriptor]

    func precedes(_ left: FetchedResultsController.Entry, _ right: FetchedResultsController.Entry) -> Bool {
        for (index, descriptor) in descriptors.enumerated() where index < left.keys.count && index < right.keys.count {
            let order = InMemoryOrder.compare(left.keys[index], right.keys[index], descriptor.comparison)
            if order != .orderedSame {
                return descriptor.ascending ? order == .orderedAscending : order == .orderedDescending
            }
        }
        return InMemoryOrder.tieBreak(left.object.objectID, right.object.objectID)
    }
}
