/// Byte-wise comparisons of strings' UTF-8 (UTF-8 byte order is code-point order), on the strings'
/// contiguous storage when they have it: the evaluator's string comparisons run on every object.
enum UTF8Bytes {
    static func equal(_ a: String, _ b: String) -> Bool {
        if a.utf8.count != b.utf8.count { return false }
        return withBytes(a, b) { x, y in x.elementsEqual(y) } ?? a.utf8.elementsEqual(b.utf8)
    }

    static func hasPrefix(_ string: String, _ prefix: String) -> Bool {
        if prefix.utf8.count > string.utf8.count { return false }
        return withBytes(string, prefix) { x, y in UnsafeBufferPointer(rebasing: x[..<y.count]).elementsEqual(y) }
            ?? string.utf8.starts(with: prefix.utf8)
    }

    /// Negative, zero or positive as `a` sorts before, with or after `b`.
    static func compare(_ a: String, _ b: String) -> Int {
        withBytes(a, b) { x, y in order(x, y) } ?? order(Array(a.utf8), Array(b.utf8))
    }

    private static func order<C: Collection>(_ x: C, _ y: C) -> Int where C.Element == UInt8 {
        var i = x.makeIterator()
        var j = y.makeIterator()
        while true {
            switch (i.next(), j.next()) {
            case (nil, nil): return 0
            case (nil, _): return -1
            case (_, nil): return 1
            case (let p?, let q?):
                if p != q { return p < q ? -1 : 1 }
            }
        }
    }

    private static func withBytes<R>(
        _ a: String, _ b: String, _ body: (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>) -> R
    ) -> R? {
        a.utf8.withContiguousStorageIfAvailable { x in
            b.utf8.withContiguousStorageIfAvailable { y in body(x, y) }
        } ?? nil
    }
}
