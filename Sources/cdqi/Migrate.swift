import ArgumentParser
import CDQIModel
import CDQIStore
import Foundation

/// `cdqi migrate`: lightweight migration of a store to a version of its model bundle.
struct Migrate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Migrates a store to a later version of its model bundle.",
        discussion: """
            Finds the version of the bundle that wrote the store (or the model the store carries), \
            prints each change in the model's terms, and carries them out: a fresh store of the \
            new version is built beside the original, every object is copied into it, and it \
            replaces the original in one rename. Changes that need a mapping model are refused, \
            each named, and nothing is written.

            Exit status: 0 when migrated (or already at the version), 64 on bad usage, 1 when the \
            migration is refused or fails (the store is then unchanged).
            """
    )

    @Argument(help: "The model bundle's name (found under the current folder) or the path of a .xcdatamodeld.")
    var model: String

    @Argument(help: "The SQLite store file.")
    var store: String

    @Option(help: ArgumentHelp("The version to migrate to. Default: the bundle's current version.", valueName: "version"))
    var to: String?

    @Flag(name: .customLong("dry-run"), help: "Print the plan and write nothing.")
    var dryRun = false

    func run() throws {
        try StoreCommandSupport.requireFile(store, command: "migrate")
        let bundle = try StoreCommandSupport.loadBundle(model)
        let url = URL(fileURLWithPath: store)
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw StoreCommandSupport.fail("\(store): no such store")
        }
        let plan: MigrationPlan
        do {
            plan = try bundle.migrationPlan(forStoreAt: url, to: to)
        } catch {
            if case .model = error { throw StoreCommandSupport.fail(error.description, usage: true) }
            throw StoreCommandSupport.fail(error.description)
        }
        let target = plan.destinationVersion ?? "the current version"
        if plan.isAlreadyCompatible {
            StoreCommandSupport.write("\(store): already at version '\(target)'; nothing to do\n")
            return
        }
        var text = "migrate \(store)\n  from: " + (plan.sourceVersion.map { "'\($0)'" } ?? "the model the store carries (Z_MODELCACHE)")
        text += "\n  to:   '\(target)'\n"
        if plan.steps.count > 1 {
            text += "\(plan.steps.count) steps (progressive: the direct migration cannot be inferred):\n"
            for step in plan.steps {
                text += "  '\(step.sourceVersion ?? "")' → '\(step.destinationVersion ?? "")', \(step.changes.count) change(s):\n"
                text += step.changes.map { "    - \($0)\n" }.joined()
            }
        } else {
            text += "\(plan.changes.count) change(s):\n" + plan.changes.map { "  - \($0)\n" }.joined()
        }
        StoreCommandSupport.write(text)
        if !plan.refusals.isEmpty {
            throw StoreCommandSupport.fail(
                "cannot migrate: \(plan.refusals.count) change(s) need a mapping model; nothing was written")
        }
        if dryRun {
            StoreCommandSupport.write("dry run: nothing written\n")
            return
        }
        let showsProgress = isatty(STDERR_FILENO) == 1
        let report: MigrationReport
        do {
            report = try bundle.migrateStore(at: url, to: to) { done, total in
                if showsProgress { FileHandle.standardError.write(Data("\rmigrating: \(done)/\(total)".utf8)) }
            }
        } catch {
            if showsProgress { FileHandle.standardError.write(Data("\n".utf8)) }
            throw StoreCommandSupport.fail(error.description)
        }
        if showsProgress { FileHandle.standardError.write(Data("\n".utf8)) }
        StoreCommandSupport.write("migrated \(report.objectCount) object(s) to '\(target)'\n")
    }
}
