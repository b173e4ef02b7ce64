extension ManagedObjectContext {
    /// The failures of generated (non-throwing) property accessors on this context's objects since the
    /// last ``takeAccessorErrors()``, oldest first: faults that could not be fulfilled, relationship
    /// changes that were refused. Such a getter returned the unset value and such a setter changed
    /// nothing. Empty when every access succeeded.
    public var accessorErrors: [ManagedObjectError] { accessorErrorLog }

    /// Returns ``accessorErrors`` and clears them.
    public func takeAccessorErrors() -> [ManagedObjectError] {
        defer { accessorErrorLog.removeAll() }
        return accessorErrorLog
    }
}
