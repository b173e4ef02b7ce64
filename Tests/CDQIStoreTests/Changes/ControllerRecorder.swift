import Foundation
import Testing

@testable import CDQIObjects
@testable import CDQISQLite
@testable import CDQIStore

/// A delegate that writes each callback in §7's notation (`W`, `D`, `S(ins,1)`, `O(ins,→[0,0])`,
/// `O(del,[1,0])`, `O(move,[1,0]→[0,1])`, `O(upd,[0,1]→[0,1])`, `O(upd,[0,0]→nil)`), and keeps them
/// for replaying over the previous sections.
final class ControllerRecorder: FetchedResultsControllerDelegate {
    enum Event {
        case object(ManagedObject, FetchedResultsChangeType, IndexPath?, IndexPath?)
        case section(String, Int, FetchedResultsChangeType)
    }

    var log: [String] = []
    /// The object and section callbacks, one list per will-change/did-change batch.
    var batches: [[Event]] = []
    var events: [Event] { batches.flatMap { $0 } }
    var snapshots: [FetchedResultsSnapshot] = []
    var differences: [CollectionDifference<ManagedObjectID>] = []

    func reset() {
        log = []
        batches = []
        snapshots = []
        differences = []
    }

    private static func path(_ path: IndexPath?) -> String {
        guard let path else { return "nil" }
        return "[\(path.map(String.init).joined(separator: ","))]"
    }

    func controllerWillChangeContent(_ controller: FetchedResultsController) {
        log.append("W")
        batches.append([])
    }
    func controllerDidChangeContent(_ controller: FetchedResultsController) { log.append("D") }

    func controller(
        _ controller: FetchedResultsController, didChange object: ManagedObject, at indexPath: IndexPath?,
        for type: FetchedResultsChangeType, newIndexPath: IndexPath?
    ) {
        if batches.isEmpty { batches.append([]) }
        batches[batches.count - 1].append(.object(object, type, indexPath, newIndexPath))
        switch type {
        case .insert: log.append("O(ins,→\(Self.path(newIndexPath)))")
        case .delete: log.append("O(del,\(Self.path(indexPath)))")
        case .move: log.append("O(move,\(Self.path(indexPath))→\(Self.path(newIndexPath)))")
        case .update: log.append("O(upd,\(Self.path(indexPath))→\(Self.path(newIndexPath)))")
        }
    }

    func controller(
        _ controller: FetchedResultsController, didChange sectionInfo: FetchedResultsSectionInfo,
        atSectionIndex sectionIndex: Int, for type: FetchedResultsChangeType
    ) {
        if batches.isEmpty { batches.append([]) }
        batches[batches.count - 1].append(.section(sectionInfo.name, sectionIndex, type))
        log.append("S(\(type == .insert ? "ins" : "del"),\(sectionIndex))")
    }

    func controller(_ controller: FetchedResultsController, didChangeContentWith snapshot: FetchedResultsSnapshot) {
        snapshots.append(snapshot)
    }

    func controller(
        _ controller: FetchedResultsController, didChangeContentWith difference: CollectionDifference<ManagedObjectID>
    ) {
        differences.append(difference)
    }

    /// The sections as names and objects.
    typealias Sections = [(name: String, objects: [ManagedObject])]

    static func sections(of controller: FetchedResultsController) -> Sections {
        (controller.sections ?? []).map { ($0.name, $0.objects) }
    }

    /// Replays the recorded events over `old` with a table view's batch-update semantics: rows deleted
    /// (and move sources) at old paths, sections deleted at old indices, sections inserted at new
    /// indices, rows inserted (and move destinations) at new paths; updates stay in place.
    /// `nil` when the events do not apply.
    func replay(over old: Sections) -> Sections? {
        var current = old
        for batch in batches {
            guard let next = Self.replay(batch, over: current) else { return nil }
            current = next
        }
        return current
    }

    private static func replay(_ events: [Event], over old: Sections) -> Sections? {
        var sections = old.map { (name: $0.name, objects: Optional($0.objects.map(Optional.some))) }
        var removals: [IndexPath] = []
        var insertions: [(IndexPath, ManagedObject)] = []
        var sectionDeletes: [Int] = []
        var sectionInserts: [(Int, String)] = []
        for event in events {
            switch event {
            case .object(_, .delete, let at?, _): removals.append(at)
            case .object(let object, .move, let at?, let to?):
                removals.append(at)
                insertions.append((to, object))
            case .object(let object, .insert, _, let to?): insertions.append((to, object))
            case .object(_, .update, _, _): break
            case .section(let name, let index, .insert): sectionInserts.append((index, name))
            case .section(_, let index, .delete): sectionDeletes.append(index)
            default: return nil
            }
        }
        // Mark removed rows, then drop them.
        for path in removals {
            guard sections.indices.contains(path[0]), var rows = sections[path[0]].objects,
                rows.indices.contains(path[1]), rows[path[1]] != nil
            else { return nil }
            rows[path[1]] = nil
            sections[path[0]].objects = rows
        }
        for index in sectionDeletes {
            guard sections.indices.contains(index), sections[index].objects?.allSatisfy({ $0 == nil }) == true else { return nil }
            sections[index].objects = nil
        }
        var result: Sections = sections.compactMap { section in section.objects.map { (section.name, $0.compactMap { $0 }) } }
        for (index, name) in sectionInserts.sorted(by: { $0.0 < $1.0 }) {
            guard index <= result.count else { return nil }
            result.insert((name, []), at: index)
        }
        for (path, object) in insertions.sorted(by: { $0.0 < $1.0 }) {
            guard result.indices.contains(path[0]), path[1] <= result[path[0]].objects.count else { return nil }
            result[path[0]].objects.insert(object, at: path[1])
        }
        return result
    }

    static func same(_ left: Sections, _ right: Sections) -> Bool {
        left.count == right.count
            && zip(left, right).allSatisfy { $0.name == $1.name && $0.objects.elementsEqual($1.objects, by: ===) }
    }
}
