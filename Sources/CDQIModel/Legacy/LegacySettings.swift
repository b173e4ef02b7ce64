/// The Core Data settings of one Xcode 3 model element, gathered from its stereotypes.
///
/// Xcode 3 keeps each setting as an `XDUMLPropertyImp` inside a stereotype (`XD_PStereotype` for
/// entities, `XD_PPropStereotype` for every property, `XD_PAtt_Stereotype` for attributes,
/// `XD_PR_Stereotype` for relationships), with the value in the item's `_default`. The keys carry a
/// prefix per stereotype (`XD_PSK_`, `XD_PPSK_`, `XD_PAttK_`, `XD_PRK_`), so one flat table holds them.
struct LegacySettings: Sendable {
    private var values: [String: PropertyListValue] = [:]

    /// The raw (possibly unresolved) value of a setting, or `nil` when the element does not have it.
    subscript(key: String) -> PropertyListValue? {
        get { values[key] }
        set { values[key] = newValue }
    }
}
