import CDQIPredicate
import CDQIStore
import Foundation
import Persistence

/// WP: Persistence's `dao.findAll(criteria)` over every item (issue 21's speed goal: within 1.1× of the
/// same fetch through our `FetchRequest`). Both contenders fetch the 100k items whose code is not nil
/// (all of them), ordered by code, each in a fresh context made before the clock starts and released
/// after it stops (W2's shape), from the same container.
///
/// The summary line prints Persistence as "ours" and the direct fetch as "raw" (the two kinds the
/// runner knows): read "ours/raw" as Persistence / FetchRequest. Both checksums are the number of
/// objects fetched.
public final class PersistenceWorkload {
    private let container: PersistentContainer
    private var daoContext: ManagedObjectContext?
    private var directContext: ManagedObjectContext?

    public init(fixture: InventoryFixture) throws {
        container = try PersistentContainer(model: fixture.model, url: fixture.populatedURL)
        try InventoryEntities.register(on: container.coordinator)
    }

    /// The criteria of the Persistence contender.
    private static func criteria() -> CDSearchCriteria {
        let criteria = CDSearchCriteria.criteria()
        criteria.addFilter(CDFilter.isNotNull("code"))
        criteria.addOrder(CDOrder.ascendingOrder("code"))
        return criteria
    }

    /// The same request written directly.
    private static func request() throws -> FetchRequest {
        FetchRequest(
            entityName: "Item", predicate: try PredicateNode(format: "code != nil"),
            sortDescriptors: [FetchSortDescriptor(keyPath: "code")])
    }

    /// WP: `RuntimeDAO.findAll(criteria)` against `context.fetch(FetchRequest)`.
    public func workload(label: String) throws -> Workload {
        let request = try Self.request()
        let persistence = Contender(
            .ours, prepare: { [self] in daoContext = container.newContext() },
            run: { [self] in
                let dao = RuntimeDAO(contextAndEntityName: daoContext ?? container.newContext(), entityName: "Item")
                return try dao.tryFindAll(Self.criteria()).count
            })
        let direct = Contender(
            .raw, prepare: { [self] in directContext = container.newContext() },
            run: { [self] in
                try (directContext ?? container.newContext()).fetch(request).count
            })
        return Workload(
            id: "WP", label: "Persistence findAll(criteria) of \(label) items", handWrittenLabel: "FetchRequest",
            note: "ours = RuntimeDAO.findAll(criteria: code != nil, ordered by code); raw = context.fetch of the same "
                + "FetchRequest; fresh contexts made and released outside the timing, as W2; goal ours/raw ≤ 1.10",
            contenders: [persistence, direct])
    }
}
