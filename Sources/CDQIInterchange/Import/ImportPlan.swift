import CDQIPredicate

/// A document checked against the model: the objects to insert, in document order, with their values
/// converted and their references resolved to positions in ``objects``.
struct ImportPlan {
    struct Object {
        /// The entity.
        var entity: String
        /// How messages name the object: `"e1"` (its `_id` in quotes) or `#3`.
        var label: String
        /// Attribute values, in document order.
        var attributes: [(key: String, value: StoredValue)]
        /// To-one relationships: the index of the destination in ``ImportPlan/objects``, or `nil` to clear.
        var toOne: [(key: String, destination: Int?)]
        /// To-many relationships: the indexes of the members, in order.
        var toMany: [(key: String, members: [Int])]
    }

    var objects: [Object]
}
