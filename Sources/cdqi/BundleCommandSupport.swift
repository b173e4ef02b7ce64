import ArgumentParser
import CDQIModel
import Foundation

extension StoreCommandSupport {
    /// Loads every version of the bundle `argument` names (a path, or a name found under the current
    /// folder). Problems are printed; the exit status is 1, or 64 when the model is not a bundle.
    static func loadBundle(_ argument: String) throws(ExitCode) -> LoadedBundle {
        let modelURL: URL
        do {
            modelURL = try ModelLocator(root: URL(fileURLWithPath: FileManager.default.currentDirectoryPath)).locate(argument)
        } catch {
            StandardError.print(error.message)
            throw ExitCode.failure
        }
        guard modelURL.pathExtension == "xcdatamodeld" else {
            throw fail("\(modelURL.path): not a .xcdatamodeld bundle; versions live in a bundle", usage: true)
        }
        do {
            return try LoadedBundle(url: modelURL)
        } catch {
            error.diagnostics.forEach { StandardError.print($0.description) }
            throw ExitCode.failure
        }
    }
}
