import CDQIModel

/// A batch delete's delete rules as the context hands them to its store: what the rules do to other
/// rows (``DeleteRulePlan``, engine-neutral) and whether the rows they write are read back. Each store
/// runs the plan its own way: the SQLite store as temporary triggers, the PostgreSQL store set by set.
package struct BatchDeleteRules {
    /// What the delete rules do.
    package let plan: DeleteRulePlan
    /// Whether rows deleted by cascades and changed by nullifies are noted (for merging into contexts,
    /// or an `.objectIDs` result).
    package let notesRows: Bool

    /// Whether no delete rule touches other rows (the delete can run alone).
    package var isEmpty: Bool { plan.isEmpty }

    /// Plans the rules of a batch delete of rows of `rootTable`.
    init(model: ManagedObjectModel, schema: StoreSchema, rootTable: String, notesRows: Bool) throws(BatchError) {
        plan = try DeleteRulePlan(model: model, schema: schema, rootTable: rootTable)
        self.notesRows = notesRows
    }
}
