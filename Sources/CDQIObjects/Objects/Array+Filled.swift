extension Array {
    /// `count` copies of `value`, like `Array(repeating:count:)`. That initializer allocates through a
    /// call the compiler does not specialize, which looks up the storage class's metadata every time: a
    /// hot spot when every object read or inserted gets its own slot arrays. Reserving and appending
    /// allocates through specialized code with the metadata cached.
    static func filled(with value: Element, count: Int) -> [Element] {
        var array: [Element] = []
        array.reserveCapacity(count)
        for _ in 0..<count { array.append(value) }
        return array
    }
}
