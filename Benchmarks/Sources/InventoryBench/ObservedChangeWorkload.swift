import CDQIPredicate
import CDQIStore
import Foundation

/// W13: one changed object in an observed 10,000-row result (at the quick sizes too). A
/// `FetchedResultsController` over every item, sorted by price then code, gets one item's price changed
/// (which moves it), and the time until its delegate has heard of the change is set against refetching
/// the result (`performFetch()`), both medians over the run. Two ways the change arrives:
///
/// - **local**: `setValue` in the controller's context, then `processPendingChanges()` (timed);
/// - **merged**: another context of the coordinator changes and saves the item (untimed), then the
///   controller's context merges it (`processPendingMerges()`, timed; it refreshes the object, so the
///   new row is read back).
///
/// Goals (issue 17): ≤ 1 ms median, and ≤ 5% of a refetch.
public enum ObservedChangeWorkload {
    /// The line's id for `--only`.
    public static let id = "W13"

    /// Counts the object changes the controller reports.
    private final class ChangeCounter: FetchedResultsControllerDelegate {
        var objectChanges = 0

        func controller(
            _ controller: FetchedResultsController, didChange object: ManagedObject, at indexPath: IndexPath?,
            for type: FetchedResultsChangeType, newIndexPath: IndexPath?
        ) {
            objectChanges += 1
        }
    }

    /// Runs `rounds` timed rounds (after one warm-up round) of `changesPerRound` local and as many merged
    /// changes plus one refetch each, and returns the summary line.
    public static func line(fixture: InventoryFixture, rows: Int, label: String, rounds: Int, changesPerRound: Int = 50) throws -> String {
        let url = try fixture.makePopulatedStore(named: "observed.sqlite", itemCount: rows, withParts: false)
        let coordinator = try PersistentStoreCoordinator(model: fixture.model, url: url)
        let context = ManagedObjectContext(coordinator: coordinator)
        context.automaticallyMergesChangesFromParent = true
        let request = FetchRequest(
            entityName: "Item", predicate: try PredicateNode(format: "price >= %@", 0.0),
            sortDescriptors: [FetchSortDescriptor(keyPath: "price"), FetchSortDescriptor(keyPath: "code")])
        let controller = FetchedResultsController(
            fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: nil, cacheName: nil)
        let counter = ChangeCounter()
        controller.delegate = counter
        try controller.performFetch()
        let objects = controller.fetchedObjects ?? []
        guard objects.count == rows else {
            return "\(id): the controller fetched \(objects.count) rows, not \(rows) [RESULTS DIFFER]"
        }

        var local: [Double] = [], merged: [Double] = [], refetch: [Double] = []
        var changes = 0
        for round in 0...rounds {
            let timed = round > 0
            // A new price, unlike any stored one (those are multiples of 0.01), for the k-th change.
            func price(_ k: Int) -> Double { Double((round * changesPerRound + k) % 10_000) / 100 + 0.005 }
            func object(_ k: Int, _ shift: Int) -> ManagedObject { objects[(round * changesPerRound + k * 197 + shift) % rows] }

            for k in 0..<changesPerRound {
                try object(k, 0).setValue(price(k), forKey: "price")
                let seconds = Measurement.seconds { context.processPendingChanges() }
                if timed { local.append(seconds) }
                changes += 1
            }
            try context.save()

            let writer = ManagedObjectContext(coordinator: coordinator)
            for k in 0..<changesPerRound {
                try writer.existingObject(with: object(k, 7).objectID).setValue(price(k) + 0.002, forKey: "price")
                try writer.save()
                let seconds = Measurement.seconds { context.processPendingMerges() }
                if timed { merged.append(seconds) }
                changes += 1
            }

            let seconds = try Measurement.seconds { try controller.performFetch() }
            if timed { refetch.append(seconds) }
        }

        let refetchMedian = Measurement.median(refetch)
        func ms(_ seconds: Double) -> String { fixedDecimals(seconds * 1000, digits: 3) + " ms" }
        func share(_ values: [Double]) -> String { fixedDecimals(Measurement.median(values) / refetchMedian, digits: 3) }
        var line =
            "\(id) one change in an observed \(label)-row result: "
            + "local change \(ms(Measurement.median(local))), merged save \(ms(Measurement.median(merged))), "
            + "refetch \(ms(refetchMedian)), local/refetch \(share(local)), merged/refetch \(share(merged)) "
            + "(goals ≤ 1 ms and ≤ 0.05; medians of \(local.count) changes each and \(refetch.count) refetches)"
        if counter.objectChanges != changes || (controller.fetchedObjects?.count ?? 0) != rows {
            line +=
                " [RESULTS DIFFER: \(counter.objectChanges) callbacks for \(changes) changes, "
                + "\(controller.fetchedObjects?.count ?? 0) rows]"
        }
        line +=
            " [ours: FetchedResultsController sorted by price, code; a price change (a move) through "
            + "setValue + processPendingChanges, or another context's save + processPendingMerges; refetch: performFetch]"
        return line
    }
}
