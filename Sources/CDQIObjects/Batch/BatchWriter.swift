/// What a store's batch statement wrote (see ``PersistentStore/runBatch(_:request:deleteRules:)``): the
/// rows it touched, read back inside its write transaction.
package enum BatchWriter {
    /// A row touched: its entity number and primary key.
    package struct Row: Hashable {
        package var entity: Int
        package var key: Int64

        package init(entity: Int, key: Int64) {
            self.entity = entity
            self.key = key
        }
    }

    /// What a batch wrote.
    package struct Written {
        /// The rows the request's predicate matched (when the statement returned them).
        package var matched: [Row] = []
        /// How many rows the statement itself deleted or changed.
        package var matchedCount = 0
        /// Rows deleted by cascades.
        package var alsoDeleted: [Row] = []
        /// Rows changed by nullify rules.
        package var alsoUpdated: [Row] = []

        package init(matched: [Row] = [], matchedCount: Int = 0) {
            self.matched = matched
            self.matchedCount = matchedCount
        }
    }
}
