import CDQIModel
import CDQIStore

/// What one ``ManagedObjectContext`` keeps while its `perform` runs: the errors of the calls that
/// cannot throw (upstream's `encode`, to-one setters, `add`, `remove`, `delete`), which
/// ``PersistentContainer/perform(action:)`` throws instead of saving, and the decode plans worked out
/// so far. Confined to the context's caller, like the context.
@usableFromInline
final class ContextSession {
    private(set) var errors: [any Error] = []
    /// Decode plans by type and entity.
    private var plans: [PlanKey: AnyObject] = [:]
    /// The plan found last, and its key: decoding the objects of one fetch asks for the same plan
    /// again and again.
    private var lastPlan: (key: PlanKey, plan: AnyObject)?

    private struct PlanKey: Hashable {
        let type: ObjectIdentifier
        let entity: ObjectIdentifier
    }

    func record(_ error: any Error) { errors.append(error) }

    /// Runs `body`, recording what it throws.
    func recording(_ body: () throws -> Void) {
        do {
            try body()
        } catch {
            record(error)
        }
    }

    /// The plan for decoding `P` from objects of `object`'s entity (worked out once per entity).
    @usableFromInline
    func plan<P: ManagedObjectConvertible>(_ type: P.Type, for object: CDQIStore.ManagedObject) -> DecodePlan<P> {
        let key = PlanKey(type: ObjectIdentifier(type), entity: ObjectIdentifier(object.entity))
        // The key names the plan's type: a plan stored under it is a `DecodePlan<P>`.
        if let last = lastPlan, last.key == key { return unsafeDowncast(last.plan, to: DecodePlan<P>.self) }
        let plan =
            plans[key].map { unsafeDowncast($0, to: DecodePlan<P>.self) }
            ?? DecodePlan<P>(entity: object.entity, model: object.managedObjectContext?.coordinator.model)
        plans[key] = plan
        lastPlan = (key, plan)
        return plan
    }
}
