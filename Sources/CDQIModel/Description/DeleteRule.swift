/// What happens to a relationship's destination objects when the source object is deleted.
///
/// The raw value is the model file's `deletionRule` spelling.
public enum DeleteRule: String, Sendable, Hashable, Codable, CaseIterable {
    /// Remove the deleted object from the destinations' inverse relationship.
    case nullify = "Nullify"
    /// Delete the destination objects too.
    case cascade = "Cascade"
    /// Refuse the deletion while the relationship holds any object.
    case deny = "Deny"
    /// Do nothing to the destination objects (they may be left pointing at a deleted object).
    case noAction = "No Action"
}
