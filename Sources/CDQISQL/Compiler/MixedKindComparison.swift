import CDQIModel
import CDQIPredicate

/// A comparison of an attribute with a constant of another kind (`salary == "50000"`, `hireDate > 3`).
///
/// The predicate language's rule (predicate-language.md §3.2) decides these without an error: values of
/// different kinds are never equal and never ordered, so `==` matches nothing and `!=` everything with a
/// value. That is rarely what the writer meant, so `cdqi query`, `explain()` and `cdqi lint` say so.
public struct MixedKindComparison: Sendable, Hashable, CustomStringConvertible {
    /// The key path as written (`department.budget`).
    public var keyPath: String
    /// The entity the key path ends on, and the attribute's type.
    public var entityName: String
    public var attributeType: AttributeType
    /// The kind of the constant (`string`, `number`, `date`, `data`, `UUID`, `URI`, `object`).
    public var constantKind: String
    /// The comparison, printed in the format language.
    public var comparison: String

    /// A sentence naming the key and both kinds, and what follows from the rule.
    public var description: String {
        "'\(comparison)' compares '\(keyPath)' (\(attributeType.rawValue), a \(Self.kindName(of: attributeType))) "
            + "with a \(constantKind): values of different kinds are never equal or ordered, so this comparison is "
            + "always false (true for !=). Compare with a \(Self.kindName(of: attributeType)), or check the key"
    }

    /// Every comparison of `predicate`, on entity `entityName` of `model`, whose attribute and constant
    /// differ in kind; empty when the entity is unknown (the fetch reports that itself).
    public static func find(in predicate: PredicateNode, entityName: String, model: ManagedObjectModel) -> [MixedKindComparison] {
        guard let entity = model.entity(named: entityName) else { return [] }
        var found: [MixedKindComparison] = []
        collect(predicate, entity: entity, model: model, into: &found)
        return found
    }

    private static func collect(
        _ predicate: PredicateNode, entity: EntityDescription, model: ManagedObjectModel,
        into found: inout [MixedKindComparison]
    ) {
        switch predicate.kind {
        case .constant: return
        case .and(let parts), .or(let parts):
            for part in parts { collect(part, entity: entity, model: model, into: &found) }
        case .not(let inner):
            collect(inner, entity: entity, model: model, into: &found)
        case .comparison(let comparison):
            check(comparison, entity: entity, model: model, into: &found)
        }
    }

    private static func check(
        _ comparison: PredicateNode.Comparison, entity: EntityDescription, model: ManagedObjectModel,
        into found: inout [MixedKindComparison]
    ) {
        let sides = [(comparison.lhs, comparison.rhs), (comparison.rhs, comparison.lhs)]
        for (keySide, constantSide) in sides {
            guard let (path, target, attribute) = attribute(at: keySide, from: entity, model: model),
                let attributeKind = ValueKind(attributeType: attribute.type),
                attribute.type != .transformable
            else { continue }
            let constants: [StoredValue]
            switch constantSide.kind {
            case .constant(let value): constants = [value]
            case .constantCollection(let elements, _):
                constants = elements.compactMap { element in
                    if case .constant(let value) = element.kind { return value }
                    return nil
                }
            default: continue
            }
            for constant in constants {
                guard let constantKind = ValueKind(constant: constant), !attributeKind.isComparable(with: constantKind) else { continue }
                found.append(
                    MixedKindComparison(
                        keyPath: path, entityName: target.name, attributeType: attribute.type,
                        constantKind: kindName(of: constantKind),
                        comparison: PredicateNode(kind: .comparison(comparison)).predicateFormat))
                return
            }
        }
    }

    /// The attribute a plain key path (`a.b.c`, through relationships) names, with its text and entity.
    private static func attribute(
        at expression: ExpressionNode, from entity: EntityDescription, model: ManagedObjectModel
    )
        -> (String, EntityDescription, AttributeDescription)?
    {
        guard case .keyPath(base: nil, let components) = expression.kind, !components.isEmpty else { return nil }
        var keys: [String] = []
        for component in components {
            guard case .key(let key) = component else { return nil }
            keys.append(key)
        }
        var current = entity
        for key in keys.dropLast() {
            guard let relationship = model.allRelationships(of: current).first(where: { $0.name == key }),
                let next = model.entity(named: relationship.destinationEntityName)
            else { return nil }
            current = next
        }
        guard let last = keys.last, let attribute = model.allAttributes(of: current).first(where: { $0.name == last }) else { return nil }
        return (keys.joined(separator: "."), current, attribute)
    }

    private static func kindName(of type: AttributeType) -> String {
        ValueKind(attributeType: type).map(kindName(of:)) ?? "value"
    }

    private static func kindName(of kind: ValueKind) -> String {
        switch kind {
        case .number: "number"
        case .string: "string"
        case .date: "date"
        case .data: "data"
        case .uuid: "UUID"
        case .uri: "URI"
        case .object: "object"
        }
    }
}
