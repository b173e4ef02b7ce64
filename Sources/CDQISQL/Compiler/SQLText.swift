/// Pieces of SQL text shared by the statements the store builds by hand.
package enum SQLText {
    /// The most keys bound in one `IN (…)` list (SQLite allows 32,766 parameters; smaller lists keep
    /// statements reusable from the cache).
    package static let keysPerQuery = 500

    /// `?, ?, ?`: `count` parameter placeholders.
    package static func placeholders(_ count: Int) -> String {
        Array(repeating: "?", count: count).joined(separator: ", ")
    }
}
