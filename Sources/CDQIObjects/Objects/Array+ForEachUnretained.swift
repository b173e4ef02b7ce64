extension Array where Element: AnyObject {
    /// Calls `body` with each position and object, without retaining the object for the call: the array
    /// keeps it alive for as long as this runs (a retain and release per object was most of the cost of
    /// calling an empty hook such as `awakeFromFetch` or `willSave` on many objects).
    /// An error `body` throws ends the walk and is rethrown.
    func forEachUnretained<Failure: Error>(_ body: (_ position: Int, _ object: Element) throws(Failure) -> Void) throws(Failure) {
        try withUnsafeBufferPointer { (objects) throws(Failure) in
            for position in objects.indices {
                // Carried out of the call, which rethrows only untyped errors.
                var failure: Failure?
                Unmanaged.passUnretained(objects[position])._withUnsafeGuaranteedRef { object in
                    do throws(Failure) { try body(position, object) } catch { failure = error }
                }
                if let failure { throw failure }
            }
        }
    }
}
