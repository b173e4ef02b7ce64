import CDQIPredicate

/// Puts `modifier` (`ANY` or `ALL`) in front of `filter`'s comparison, as upstream's re-parse of
/// `"any " + predicateFormat` does; a filter that is not one comparison cannot take it.
func quantified(_ filter: CDFilter, _ modifier: ComparisonModifier, keyword: String) throws(PersistenceError) -> PredicateNode {
    let inner = try filter.tryCreatePredicate()
    guard case .comparison(var comparison) = inner.kind, comparison.modifier == .direct else {
        throw .invalidFilter(
            property: filter.property, reason: "\(keyword) applies to one comparison, not to \(inner.predicateFormat)")
    }
    comparison.modifier = modifier
    return PredicateNode(kind: .comparison(comparison))
}
