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
    /// Whether the delegate gets a ``FetchedResultsSnapshot`` of the whole results after each fetch
    /// and change (`controller(_:didChangeContentWith:)`). Off by default: a snapshot costs time in
    /// proportion to the results, the other callbacks in proportion to the change.
    public var deliversSnapshots = false

    /// One result: the object, its sort keys, section name and ID as it was placed (the ID breaks ties,
    /// as fetches break them by primary key).
    struct Entry {
        let object: ManagedObject
        let keys: [StoredValue]
        let section: String
        let tie: ManagedObjectID
    }

    /// One section's results, in order.
    struct Section {
        var name: String
        var entries: [Entry]
    }

    /// The sections (one, possibly empty, without a section key path); `nil` before the first fetch.
    private var store: [Section]?
    /// Each result's entry, by object identity: membership, and the keys it is placed by.
    private var members: [ObjectIdentifier: Entry] = [:]
    /// The top-level keys the sort descriptors and section key path read.
    private let keyNames: Set<String>
    private let order: EntryOrder

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
        order = EntryOrder(descriptors: fetchRequest.sortDescriptors)
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
        if deliversSnapshots { delegate?.controller(self, didChangeContentWith: snapshot(reloaded: [])) }
    }

    private func entry(for object: ManagedObject) throws -> Entry {
        var keys: [StoredValue] = []
        keys.reserveCapacity(fetchRequest.sortDescriptors.count)
        for descriptor in fetchRequest.sortDescriptors {
            keys.append(try InMemoryOrder.value(of: object, at: descriptor.keyPath))
        }
        let section = try sectionNameKeyPath.map { Self.sectionName(try InMemoryOrder.value(of: object, at: $0)) } ?? ""
        return Entry(object: object, keys: keys, section: section, tie: object.objectID)
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

    /// Takes a whole sorted list as the results.
    private func install(_ list: [Entry]) {
        var sections: [Section] = []
        var members: [ObjectIdentifier: Entry] = [:]
        members.reserveCapacity(list.count)
        for entry in list {
            members[ObjectIdentifier(entry.object)] = entry
            if sectionNameKeyPath != nil, sections.last?.name != entry.section {
                sections.append(Section(name: entry.section, entries: [entry]))
            } else if sections.isEmpty {
                sections.append(Section(name: "", entries: [entry]))
            } else {
                sections[sections.count - 1].entries.append(entry)
            }
        }
        if sectionNameKeyPath == nil, sections.isEmpty { sections = [Section(name: "", entries: [])] }
        store = sections
        self.members = members
    }

    // MARK: Results

    /// The results in order, or `nil` before ``performFetch()``.
    public var fetchedObjects: [ManagedObject]? { store.map { $0.flatMap { $0.entries.map(\.object) } } }

    /// The sections (one, possibly empty, without a section key path), or `nil` before ``performFetch()``.
    public var sections: [FetchedResultsSectionInfo]? {
        store.map { $0.map(info(of:)) }
    }

    private func info(of section: Section) -> FetchedResultsSectionInfo {
        FetchedResultsSectionInfo(
            name: section.name, indexTitle: title(forSectionName: section.name), objects: section.entries.map(\.object))
    }

    /// The index titles of the sections, in order, each once.
    public var sectionIndexTitles: [String] {
        var titles: [String] = []
        for section in store ?? [] {
            if let title = title(forSectionName: section.name), !titles.contains(title) { titles.append(title) }
        }
        return titles
    }

    /// The section whose index title is `title`, at position `index` of ``sectionIndexTitles``: the
    /// first section with that title, or `nil`.
    public func section(forSectionIndexTitle title: String, at index: Int) -> Int? {
        let titles = sectionIndexTitles
        guard titles.indices.contains(index), titles[index] == title else { return nil }
        return (store ?? []).firstIndex { self.title(forSectionName: $0.name) == title }
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
        guard indexPath.count == 2, let store, store.indices.contains(indexPath[0]) else { return nil }
        let entries = store[indexPath[0]].entries
        return entries.indices.contains(indexPath[1]) ? entries[indexPath[1]].object : nil
    }

    /// The `[section, row]` of an object, or `nil` when it is not in the results.
    public func indexPath(forObject object: ManagedObject) -> IndexPath? {
        guard let store, let entry = members[ObjectIdentifier(object)], let (section, row) = locate(entry, in: store)
        else { return nil }
        return IndexPath(indexes: [section, row])
    }

    /// Where an entry of the results is, by binary search on the sort order (O(log n)).
    private func locate(_ entry: Entry, in sections: [Section]) -> (section: Int, row: Int)? {
        // The first section whose last entry is not before the entry.
        var low = 0, high = sections.count
        while low < high {
            let middle = (low + high) / 2
            if let last = sections[middle].entries.last, order.precedes(last, entry) { low = middle + 1 } else { high = middle }
        }
        guard low < sections.count else { return nil }
        let row = insertionRow(of: entry, in: sections[low].entries)
        let entries = sections[low].entries
        guard entries.indices.contains(row), entries[row].object === entry.object else { return nil }
        return (low, row)
    }

    /// The first row whose entry is not before `entry`.
    private func insertionRow(of entry: Entry, in entries: [Entry]) -> Int {
        var low = 0, high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if order.precedes(entries[middle], entry) { low = middle + 1 } else { high = middle }
        }
        return low
    }

    private func snapshot(reloaded: Set<ManagedObjectID>) -> FetchedResultsSnapshot {
        let sections = store ?? []
        return FetchedResultsSnapshot(
            sectionNames: sections.map(\.name), items: sections.map { $0.entries.map(\.object.objectID) },
            reloadedItemIdentifiers: reloaded)
    }

    // MARK: Tracking

    func context(_ context: ManagedObjectContext, didSave changes: SaveChanges) {}

    func context(_ context: ManagedObjectContext, didChange change: ObjectsDidChange) {
        guard delegate != nil, store != nil, !change.invalidatedAll else { return }
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

    /// A changed object: its kind, its entries before and after, and its places.
    private struct Changed {
        let object: ManagedObject
        var kind: Kind
        var old: Entry?
        var new: Entry?
        var oldPath: (section: Int, row: Int)?
        var newPath: (section: Int, row: Int)?
        var oldIndex = 0
        var newIndex = 0
    }

    private func apply(_ change: ObjectsDidChange) throws {
        guard var sections = store, let delegate else { return }
        var changed: [ObjectIdentifier: Changed] = [:]
        func consider(_ object: ManagedObject, refreshed: Bool) throws {
            let key = ObjectIdentifier(object)
            guard changed[key] == nil, belongs(object) else { return }
            let old = members[key]
            var isIn = !object.isDeleted && object.managedObjectContext === managedObjectContext
            if isIn, let predicate = fetchRequest.predicate { isIn = try predicate.evaluate(with: object) }
            switch (old != nil, isIn) {
            case (false, true):
                changed[key] = Changed(object: object, kind: .insert, new: try entry(for: object))
            case (true, false):
                changed[key] = Changed(object: object, kind: .delete, old: old)
            case (true, true):
                if refreshed || !change.changedKeys(of: object).isDisjoint(with: keyNames) {
                    changed[key] = Changed(object: object, kind: .keyChange, old: old, new: try entry(for: object))
                } else {
                    changed[key] = Changed(object: object, kind: .update, old: old, new: old)
                }
            case (false, false):
                break
            }
        }
        for object in change.deleted.union(change.invalidated) {
            let key = ObjectIdentifier(object)
            if let old = members[key] { changed[key] = Changed(object: object, kind: .delete, old: old) }
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
        guard !changed.isEmpty else { return }

        // Old places, before anything moves.
        let oldNames = sections.map(\.name)
        let oldOffsets = Self.offsets(of: sections)
        for (key, item) in changed {
            guard let old = item.old, let path = locate(old, in: sections) else { continue }
            changed[key]?.oldPath = path
            changed[key]?.oldIndex = oldOffsets[path.section] + path.row
        }
        // The sections are changed in place: the stored copy is let go so that they are not copied.
        store = nil

        // Take out the deleted and key-changed entries (from the bottom up), then empty sections.
        let removed = changed.values.filter { $0.kind == .delete || $0.kind == .keyChange }
            .compactMap(\.oldPath).sorted { ($0.section, $0.row) > ($1.section, $1.row) }
        // What each old section lost, in order (a deleted section's objects, for its callback).
        var removedBySection: [Int: [ManagedObject]] = [:]
        for path in removed {
            let entry = sections[path.section].entries.remove(at: path.row)
            removedBySection[path.section, default: []].insert(entry.object, at: 0)
        }
        if sectionNameKeyPath != nil { sections.removeAll { $0.entries.isEmpty } }
        // Put in the inserted and key-changed ones.
        let placed = changed.values.filter { $0.kind == .insert || $0.kind == .keyChange }.compactMap(\.new)
            .sorted(by: order.precedes)
        for entry in placed {
            if sectionNameKeyPath == nil {
                sections[0].entries.insert(entry, at: insertionRow(of: entry, in: sections[0].entries))
                continue
            }
            if let index = sections.firstIndex(where: { $0.name == entry.section }) {
                sections[index].entries.insert(entry, at: insertionRow(of: entry, in: sections[index].entries))
            } else {
                // A new section, before the first section whose first entry comes after it.
                var low = 0, high = sections.count
                while low < high {
                    let middle = (low + high) / 2
                    if let first = sections[middle].entries.first, order.precedes(first, entry) { low = middle + 1 } else { high = middle }
                }
                sections.insert(Section(name: entry.section, entries: [entry]), at: low)
            }
        }
        for item in changed.values {
            let key = ObjectIdentifier(item.object)
            members[key] = item.kind == .delete ? nil : item.new
        }
        store = sections

        // New places.
        let newOffsets = Self.offsets(of: sections)
        for (key, item) in changed {
            guard let new = item.new, let path = locate(new, in: sections) else { continue }
            changed[key]?.newPath = path
            changed[key]?.newIndex = newOffsets[path.section] + path.row
        }

        let lowered = Self.loweredMoves(changed)
        var deletes: [(ManagedObject, IndexPath)] = []
        var inserts: [(ManagedObject, IndexPath)] = []
        var updates: [(ManagedObject, IndexPath, IndexPath?, FetchedResultsChangeType)] = []
        var reloaded: Set<ManagedObjectID> = []
        for (key, item) in changed {
            let oldPath = item.oldPath.map { IndexPath(indexes: [$0.section, $0.row]) }
            let newPath = item.newPath.map { IndexPath(indexes: [$0.section, $0.row]) }
            switch item.kind {
            case .delete:
                if let oldPath { deletes.append((item.object, oldPath)) }
            case .insert:
                if let newPath { inserts.append((item.object, newPath)) }
            case .update:
                if let oldPath, let newPath { updates.append((item.object, oldPath, newPath, .update)) }
                reloaded.insert(item.object.objectID)
            case .keyChange:
                guard let oldPath, let newPath else { continue }
                if lowered.contains(key) {
                    updates.append((item.object, oldPath, oldPath == newPath ? nil : newPath, .update))
                } else {
                    updates.append((item.object, oldPath, newPath, .move))
                }
                reloaded.insert(item.object.objectID)
            }
        }
        let sectioned = sectionNameKeyPath != nil
        let newNames = sections.map(\.name)
        let oldNameSet = Set(oldNames), newNameSet = Set(newNames)
        let sectionInserts = sectioned ? newNames.indices.filter { !oldNameSet.contains(newNames[$0]) } : []
        let sectionDeletes = sectioned ? oldNames.indices.filter { !newNameSet.contains(oldNames[$0]) } : []

        delegate.controllerWillChangeContent(self)
        for (object, path) in deletes.sorted(by: { $0.1 < $1.1 }) {
            delegate.controller(self, didChange: object, at: path, for: .delete, newIndexPath: nil)
        }
        for index in sectionInserts {
            delegate.controller(self, didChange: info(of: sections[index]), atSectionIndex: index, for: .insert)
        }
        for index in sectionDeletes {
            let name = oldNames[index]
            let info = FetchedResultsSectionInfo(
                name: name, indexTitle: title(forSectionName: name), objects: removedBySection[index] ?? [])
            delegate.controller(self, didChange: info, atSectionIndex: index, for: .delete)
        }
        for (object, path) in inserts.sorted(by: { $0.1 < $1.1 }) {
            delegate.controller(self, didChange: object, at: nil, for: .insert, newIndexPath: path)
        }
        for (object, oldPath, newPath, type) in updates.sorted(by: { $0.1 < $1.1 }) {
            delegate.controller(self, didChange: object, at: oldPath, for: type, newIndexPath: newPath)
        }
        delegate.controllerDidChangeContent(self)
        if deliversSnapshots { delegate.controller(self, didChangeContentWith: snapshot(reloaded: reloaded)) }
        if !sectioned, let difference = Self.difference(changed) {
            delegate.controller(self, didChangeContentWith: difference)
        }
    }

    /// Where each section starts in the whole list.
    private static func offsets(of sections: [Section]) -> [Int] {
        var offsets: [Int] = []
        offsets.reserveCapacity(sections.count)
        var total = 0
        for section in sections {
            offsets.append(total)
            total += section.entries.count
        }
        return offsets
    }

    /// The key-changed objects (kept in the same section) that can be reported as updates: those
    /// with as many unchanged objects before them after the change as before it, when the lowered
    /// objects sharing a gap between unchanged objects also keep their order. Worked out from the
    /// changed objects' indices alone (O(k log k) for k changes).
    private static func loweredMoves(_ changed: [ObjectIdentifier: Changed]) -> Set<ObjectIdentifier> {
        let items = Array(changed.values)
        // Not fixed: gone from the old list (deleted, key-changed), or new in the new list (inserted, key-changed).
        let oldUnfixed = items.filter { ($0.kind == .delete || $0.kind == .keyChange) && $0.oldPath != nil }
            .map(\.oldIndex).sorted()
        let newUnfixed = items.filter { ($0.kind == .insert || $0.kind == .keyChange) && $0.newPath != nil }
            .map(\.newIndex).sorted()
        var groups: [Int: [Changed]] = [:]
        for item in items where item.kind == .keyChange {
            guard let old = item.old, let new = item.new, old.section == new.section, item.oldPath != nil, item.newPath != nil
            else { continue }
            let rankBefore = item.oldIndex - oldUnfixed.countBelow(item.oldIndex)
            let rankAfter = item.newIndex - newUnfixed.countBelow(item.newIndex)
            guard rankBefore == rankAfter else { continue }
            groups[rankBefore, default: []].append(item)
        }
        var lowered: Set<ObjectIdentifier> = []
        for members in groups.values {
            let byOld = members.sorted { $0.oldIndex < $1.oldIndex }.map { ObjectIdentifier($0.object) }
            let byNew = members.sorted { $0.newIndex < $1.newIndex }.map { ObjectIdentifier($0.object) }
            if byOld == byNew { lowered.formUnion(byOld) }
        }
        return lowered
    }

    /// The change as a collection difference over IDs: deletes removed, inserts inserted, updated and
    /// moved objects removed and inserted again (associated).
    private static func difference(_ changed: [ObjectIdentifier: Changed]) -> CollectionDifference<ManagedObjectID>? {
        var steps: [CollectionDifference<ManagedObjectID>.Change] = []
        for item in changed.values {
            let id = item.object.objectID
            switch item.kind {
            case .delete:
                if item.oldPath != nil { steps.append(.remove(offset: item.oldIndex, element: id, associatedWith: nil)) }
            case .insert:
                if item.newPath != nil { steps.append(.insert(offset: item.newIndex, element: id, associatedWith: nil)) }
            case .update, .keyChange:
                guard item.oldPath != nil, item.newPath != nil else { continue }
                steps.append(.remove(offset: item.oldIndex, element: id, associatedWith: item.newIndex))
                steps.append(.insert(offset: item.newIndex, element: id, associatedWith: item.oldIndex))
            }
        }
        return CollectionDifference(steps)
    }
}

/// The order of results: by their sort keys, ties by the object ID they were placed with, as fetches
/// break them by primary key.
struct EntryOrder {
    let descriptors: [FetchSortDescriptor]

    func precedes(_ left: FetchedResultsController.Entry, _ right: FetchedResultsController.Entry) -> Bool {
        for (index, descriptor) in descriptors.enumerated() where index < left.keys.count && index < right.keys.count {
            let order = InMemoryOrder.compare(left.keys[index], right.keys[index], descriptor.comparison)
            if order != .orderedSame {
                return descriptor.ascending ? order == .orderedAscending : order == .orderedDescending
            }
        }
        return InMemoryOrder.tieBreak(left.tie, right.tie)
    }
}
