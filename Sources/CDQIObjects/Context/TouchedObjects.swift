/// The objects of a context inserted, deleted or changed since the last save, in the order they were
/// first touched.
///
/// Each object keeps its position in the list, so that the check a setter makes on every call ("is the
/// object already listed?") reads a field instead of hashing into a dictionary.
struct TouchedObjects {
    private(set) var values: [ManagedObject] = []

    /// Lists the object (once).
    mutating func insert(_ object: ManagedObject) {
        guard object.touchedPosition < 0 else { return }
        object.touchedPosition = values.count
        values.append(object)
    }

    /// Takes the object off the list.
    mutating func remove(_ object: ManagedObject) {
        let position = object.touchedPosition
        guard position >= 0, position < values.count, values[position] === object else { return }
        object.touchedPosition = -1
        let last = values.removeLast()
        if last !== object {
            values[position] = last
            last.touchedPosition = position
        }
    }

    mutating func removeAll() {
        for object in values { object.touchedPosition = -1 }
        values = []
    }
}
