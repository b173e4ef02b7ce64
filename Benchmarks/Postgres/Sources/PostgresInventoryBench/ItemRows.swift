/// What a timed run returns: the rows as the contender materialized them (its structs, its models), or
/// just a count. Their checksum is worked out after the clock stops, so that it costs no contender time.
public protocol ItemRows: Sendable {
    func checksum() -> ItemChecksum
}

extension ItemChecksum: ItemRows {
    public func checksum() -> ItemChecksum { self }
}
