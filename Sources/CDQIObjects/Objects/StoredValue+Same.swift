import CDQIPredicate

extension StoredValue {
    /// `a.pointee == b.pointee`, read in place: the kinds most attributes hold are compared without
    /// copying either value out (a copy switches on the kind and retains the payload, and cost more than
    /// the comparison); other kinds fall back to `==`.
    @inline(__always)
    static func same(_ a: UnsafePointer<StoredValue>, _ b: UnsafePointer<StoredValue>) -> Bool {
        switch (a.pointee, b.pointee) {
        case (.integer(let x), .integer(let y)): return x == y
        case (.double(let x), .double(let y)): return x == y
        case (.bool(let x), .bool(let y)): return x == y
        case (.date(let x), .date(let y)): return x == y
        case (.null, .null): return true
        case (.string(let x), .string(let y)): return x == y
        default: return a.pointee == b.pointee
        }
    }
}
