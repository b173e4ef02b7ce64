import CDQIModel
import CDQIPredicate

/// Whether a fetch request's results can be kept up to date from change sets alone, and what a changed
/// object must be to matter: the request's own objects are re-evaluated; an object of an entity the
/// predicate or sort reads through a relationship (its *dependencies*) can change results that did not
/// change themselves, so it calls for a refetch; any other object cannot change the results.
///
/// A request qualifies when it is sorted (the order is the sort keys, ties by primary key, exactly as
/// its SQL orders), has no window (limit, offset), and every key path of its predicate and sort resolves
/// in the model to attributes, possibly through relationships whose destinations are outside the
/// fetched entity's table (a relationship back into the same hierarchy would let one object's change
/// move others). `SUBQUERY`, variables and key paths the model does not know do not qualify.
package struct IncrementalResultsPlan: Sendable {
    /// The request the results answer.
    package let request: FetchRequest
    /// The entities read through relationships.
    let dependencies: Set<String>

    /// The plan for `request`, or `nil` when its results cannot be kept incrementally.
    package init?(request: FetchRequest, model: ManagedObjectModel) {
        guard !request.sortDescriptors.isEmpty, request.fetchLimit <= 0, request.fetchOffset <= 0,
            request.propertiesToFetch.isEmpty, request.propertiesToGroupBy.isEmpty,
            let entity = model.entity(named: request.entityName)
        else { return nil }
        var walker = KeyPathWalker(model: model, root: entity)
        for descriptor in request.sortDescriptors {
            let components = descriptor.keyPath.split(separator: ".", omittingEmptySubsequences: false)
                .map { KeyPathComponent.key(String($0)) }
            guard walker.walk(components, toOneOnly: true) else { return nil }
        }
        if let predicate = request.predicate, !walker.walk(predicate) { return nil }
        // A dependency in the fetched entity's own table: one object's change can change another's result.
        let table = Self.tableRoot(of: entity, in: model)
        for name in walker.dependencies {
            guard let destination = model.entity(named: name), Self.tableRoot(of: destination, in: model) != table else { return nil }
        }
        self.request = request
        dependencies = walker.dependencies
    }

    private static func tableRoot(of entity: EntityDescription, in model: ManagedObjectModel) -> String {
        model.ancestors(of: entity).last?.name ?? entity.name
    }

    /// Whether an object of this entity (its lineage, nearest first) is one the request fetches.
    func fetches(_ lineage: [String]) -> Bool {
        request.includesSubentities ? lineage.contains(request.entityName) : lineage.first == request.entityName
    }

    /// Whether a change to an object of this entity can change results other than its own.
    func dependsOn(_ lineage: [String]) -> Bool {
        !dependencies.isEmpty && lineage.contains { dependencies.contains($0) }
    }
}

/// Resolves the key paths of a predicate against the model, collecting the relationships' destinations.
private struct KeyPathWalker {
    let model: ManagedObjectModel
    let root: EntityDescription
    var dependencies: Set<String> = []

    mutating func walk(_ predicate: PredicateNode) -> Bool {
        switch predicate.kind {
        case .constant: true
        case .comparison(let comparison): walk(comparison.lhs) && walk(comparison.rhs)
        case .and(let parts), .or(let parts): parts.allSatisfy { walk($0) }
        case .not(let inner): walk(inner)
        }
    }

    mutating func walk(_ expression: ExpressionNode) -> Bool {
        switch expression.kind {
        case .constant, .evaluatedObject:
            return true
        case .constantCollection(let elements, _), .aggregate(let elements):
            return elements.allSatisfy { walk($0) }
        case .keyPath(let base, let components):
            guard base == nil || base?.kind == .evaluatedObject else { return false }
            return walk(components, toOneOnly: false)
        case .index(let inner, let selector):
            if case .at(let at) = selector, !walk(at) { return false }
            return walk(inner)
        case .function(_, let arguments):
            return arguments.allSatisfy { walk($0) }
        case .methodCall(let target, _, let arguments):
            return walk(target) && arguments.allSatisfy { walk($0) }
        case .ternary(let condition, let then, let otherwise):
            return walk(condition) && walk(then) && walk(otherwise)
        case .cast(let inner, _):
            return walk(inner)
        case .setOperation(_, let left, let right):
            return walk(left) && walk(right)
        case .variable, .subquery, .assignment:
            return false
        }
    }

    /// Follows `components` from the fetched entity; `false` for a key the model does not have there.
    mutating func walk(_ components: [KeyPathComponent], toOneOnly: Bool) -> Bool {
        var entity = root
        var index = 0
        while index < components.count {
            switch components[index] {
            case .collectionOperator:
                if toOneOnly { return false }
            case .key(let key):
                if model.allAttributes(of: entity).contains(where: { $0.name == key }) {
                    // An attribute ends the path (a collection operator may have come before it).
                    return index == components.count - 1
                }
                guard let relationship = model.allRelationships(of: entity).first(where: { $0.name == key }),
                    let destination = model.entity(named: relationship.destinationEntityName)
                else { return false }
                if toOneOnly && relationship.isToMany { return false }
                dependencies.insert(destination.name)
                entity = destination
            }
            index += 1
        }
        return true
    }
}
