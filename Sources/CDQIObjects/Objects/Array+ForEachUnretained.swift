extension Array where Element: AnyObject {
    /// Calls `body` with each position and object, without retaining the object for the call: the array
    /// keeps it alive for as long as this runs (a retain and release per object was most of the cost of
    /// calling an empty hook such as `awakeFromFetch` or `willSave` on many objects).
    func forEachUnretained(_ body: (_ position: Int, _ object: Element) -> Void) {
        withUnsafeBufferPointer { objects in
            for position in objects.indices {
                Unmanaged.passUnretained(objects[position])._withUnsafeGuaranteedRef { body(position, $0) }
            }
        }
    }
}
