import ArgumentParser

/// The `cdqi` command: generates CoreDataQueryInterface code from Core Data models.
///
/// `generate` is the default subcommand, so `cdqi Company` is `cdqi generate Company`. The store
/// commands `query`, `import`, `export`, `check`, `migrate` and `inspect`, and `lint`, sit beside it.
@main
struct CDQI: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cdqi",
        abstract: "Generates CoreDataQueryInterface query proxies from Core Data models.",
        discussion: """
            With no subcommand, cdqi runs 'generate': 'cdqi Company' finds \
            Company.xcdatamodeld under the current folder and writes one proxy file per \
            entity beside it.
            """,
        version: cdqiVersion,
        subcommands: [Generate.self, Query.self, Import.self, Export.self, Check.self, Migrate.self, Inspect.self, Lint.self],
        defaultSubcommand: Generate.self
    )
}
