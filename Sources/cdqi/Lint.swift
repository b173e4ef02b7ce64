import ArgumentParser
import CDQILint
import CDQIModel
import Foundation

/// `cdqi lint PATH…`: checks the query strings in Swift sources against the model.
struct Lint: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Checks the query strings in Swift sources against a model.",
        discussion: """
            Finds the format and key-path strings of queries in .swift files (filter("…"), \
            having("…"), order("…"), select("…"), groupBy("…"), PredicateNode(format: "…")) and \
            checks them: syntax, and where the code shows the entity (context.from(Employee.self), \
            Query<Employee, …>, FetchRequest(entityName: "Employee", …), or a variable assigned one), \
            unknown keys, to-many keys where one value is needed, and constants whose kind differs \
            from the attribute's (a warning: such comparisons are always false).

            The model is --model (a name found under the current folder, or a path), or the one \
            .xcdatamodeld found among the paths. Problems print as 'file:line:column: error: …'. \
            Exit status: 0 when no errors, 1 when there are errors or the model cannot be read, \
            64 on bad usage.
            """
    )

    @Argument(help: "Swift files or folders to check (folders recursively; hidden folders and .build are skipped).")
    var paths: [String]

    @Option(
        name: .customLong("model"),
        help: ArgumentHelp(
            "The model: a name (Company) or the path of a .xcdatamodeld or .xcdatamodel. Default: the one model found among the paths.", valueName: "model"))
    var model: String?

    @Option(name: .customLong("model-version"), help: ArgumentHelp("The model version to read. Default: the bundle's current version.", valueName: "name"))
    var modelVersion: String?

    func validate() throws {
        guard !paths.isEmpty else { throw ValidationError("name at least one Swift file or folder to check.") }
    }

    func run() throws {
        let fileManager = FileManager.default
        var files: [URL] = []
        var models: [URL] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard fileManager.fileExists(atPath: path, isDirectory: &isDirectory) else {
                StandardError.print("\(path): error: no such file or folder")
                throw ExitCode.validationFailure
            }
            let url = URL(fileURLWithPath: path)
            if !isDirectory.boolValue {
                files.append(url)
                continue
            }
            guard
                let walker = fileManager.enumerator(
                    at: url, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles])
            else { continue }
            for case let item as URL in walker {
                if item.lastPathComponent == ".build" || ModelLocator.extensions.contains(item.pathExtension) {
                    if ModelLocator.extensions.contains(item.pathExtension) { models.append(item) }
                    walker.skipDescendants()
                } else if item.pathExtension == "swift",
                    (try? item.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true
                {
                    files.append(item)
                }
            }
        }

        let modelURL: URL
        if let model {
            do {
                modelURL = try ModelLocator(root: URL(fileURLWithPath: fileManager.currentDirectoryPath)).locate(model)
            } catch {
                StandardError.print(error.message)
                throw ExitCode.failure
            }
        } else {
            // A bundle's versions are not separate models: prefer bundles, then bare versions outside them.
            let bundles = models.filter { $0.pathExtension == "xcdatamodeld" }
            let candidates = bundles.isEmpty ? models : bundles
            guard candidates.count == 1, let only = candidates.first else {
                StandardError.print(
                    candidates.isEmpty
                        ? "cdqi lint: error: no model among the paths; name it with --model"
                        : "cdqi lint: error: \(candidates.count) models among the paths ("
                            + candidates.map(\.lastPathComponent).sorted().joined(separator: ", ") + "); name one with --model")
                throw ExitCode.validationFailure
            }
            modelURL = only
        }
        let loaded: LoadedModel
        do {
            loaded = try ModelLoader().load(url: modelURL, version: modelVersion)
        } catch {
            error.diagnostics.forEach { StandardError.print($0.description) }
            throw ExitCode.failure
        }

        let linter: QueryStringLinter
        do {
            linter = try QueryStringLinter(model: loaded.model)
        } catch {
            StandardError.print("\(loaded.contentsURL.path): error: \(error)")
            throw ExitCode.failure
        }
        var report = QueryStringLinter.Report()
        let here = fileManager.currentDirectoryPath + "/"
        for file in files.sorted(by: { $0.path < $1.path }) {
            // Paths as the user would write them: relative to the current folder when below it.
            let shown = file.path.hasPrefix(here) ? String(file.path.dropFirst(here.count)) : file.path
            guard let source = try? String(contentsOf: file, encoding: .utf8) else {
                StandardError.print("\(file.path): warning: not readable as UTF-8 text; skipped")
                continue
            }
            linter.lint(source: source, file: shown, into: &report)
        }
        for diagnostic in report.diagnostics { print(diagnostic.description) }
        let errors = report.diagnostics.filter { $0.severity == .error }.count
        let warnings = report.diagnostics.count - errors
        func counted(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }
        let strings = counted(report.checkedStrings, "query string")
        let scope = "\(counted(files.count, "file")) (\(report.checkedAgainstEntity) against their entity)"
        let outcome = "\(counted(errors, "error")), \(counted(warnings, "warning"))"
        StandardError.print("cdqi lint: \(strings) in \(scope) checked against the \(loaded.modelName) model: \(outcome)")
        if errors > 0 { throw ExitCode.failure }
    }
}
