import CDQIStore

extension Query where T: Identifiable {
    /// Whether a matching object has this `id` (on top of the query's own conditions).
    public func exists(_ id: T.ID) throws -> Bool {
        try identified(id).count() > 0
    }

    /// The matching object with this `id`, or `nil`.
    public func fetch(_ id: T.ID) throws -> T? {
        try identified(id).first()
    }

    /// The matching object with this `id`, or else a new object inserted into the context with its
    /// `id` set (its other attributes take their default values).
    public func fetchOrInsert(_ id: T.ID) throws -> T {
        if let object = try fetch(id) { return object }
        let new = try insertObject()
        do {
            try new.setValue(id, forKey: "id")
        } catch {
            try? context.delete(new)  // the error thrown is the one that matters
            throw error
        }
        return new
    }

    /// This query with `id == id` added, and `id` checked against the entity when it runs.
    private func identified(_ id: T.ID) -> Query<T> {
        var query = self.where("id == %@", id)
        query.namedKeys.append("id")
        return query
    }
}
