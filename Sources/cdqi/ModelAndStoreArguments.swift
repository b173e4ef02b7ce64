import ArgumentParser

/// The `[MODEL] STORE` arguments of `cdqi query` and `cdqi export`. Given one path, it is the store,
/// read with the model it carries (`Z_MODELCACHE`).
///
/// The parser fills positional arguments in order, so the first one is required and the second optional;
/// ``model`` and ``store`` say which is which.
struct ModelAndStoreArguments: ParsableArguments {
    @Argument(
        help: ArgumentHelp(
            "The model's name (found under the current folder) or the path of a model. Leave it out to use the model the store carries (Z_MODELCACHE).",
            valueName: "model"))
    var first: String

    @Argument(
        help: ArgumentHelp(
            "The SQLite store file, or a PostgreSQL URL postgres://user:password@host:port/database?schema=name.",
            valueName: "store"))
    var second: String?

    /// The model argument, `nil` when only the store was given.
    var model: String? { second == nil ? nil : first }

    /// The store argument.
    var store: String { second ?? first }
}
