/// One thing wrong with an import document: where (entity, object, key) and what.
public struct DocumentProblem: Sendable, Hashable, CustomStringConvertible {
    /// The entity, when the problem is inside an entity's list.
    public var entity: String?
    /// The object: its `_id` in quotes (`"e1"`), or its position (`#3`, from 1) when it has none.
    public var object: String?
    /// The key of the object, when the problem is one value.
    public var key: String?
    /// What is wrong.
    public var message: String

    /// Creates a problem.
    public init(entity: String? = nil, object: String? = nil, key: String? = nil, message: String) {
        self.entity = entity
        self.object = object
        self.key = key
        self.message = message
    }

    /// `Employee "e1", key 'salary': Integer 32 takes an integer, not a string`.
    public var description: String {
        var place = [entity, object].compactMap { $0 }.joined(separator: " ")
        if let key { place += place.isEmpty ? "key '\(key)'" : ", key '\(key)'" }
        return place.isEmpty ? message : "\(place): \(message)"
    }
}
