extension Array {
    /// A copy with storage of its own, made by appending each element in a loop the compiler
    /// specializes. The copy a write into shared storage makes goes through a generic per-element
    /// witness instead, which costs several times more for arrays of enums with payloads.
    func freshCopy() -> [Element] {
        var copy: [Element] = []
        copy.reserveCapacity(count)
        withUnsafeBufferPointer { elements in
            for element in elements { copy.append(element) }
        }
        return copy
    }
}
