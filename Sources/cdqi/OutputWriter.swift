import CDQIGenerator
import Foundation

/// Writes generated files into a folder: new files are written, identical ones left alone, and
/// different ones overwritten only when forced. In a dry run it says what it would do instead.
struct OutputWriter {
    let folder: URL
    let force: Bool
    let dryRun: Bool

    /// Writes the files, printing one line per file to standard output and notes to standard error.
    /// Returns the error messages of files that could not be written.
    func write(_ files: [GeneratedFile]) -> [String] {
        var errors: [String] = []
        let fileManager = FileManager.default
        if !dryRun {
            do {
                try fileManager.createDirectory(at: folder, withIntermediateDirectories: true)
            } catch {
                return ["\(folder.path): error: cannot create the output folder: \(error.localizedDescription)"]
            }
        }
        for file in files {
            let url = folder.appendingPathComponent(file.name)
            let data = Data(file.contents.utf8)
            let existing = fileManager.contents(atPath: url.path)
            if existing == data {
                // Same bytes: leave the content alone but mark the file current, so a build system that
                // compares dates (the SwiftPM plugin) does not run cdqi again on every build.
                if !dryRun { try? fileManager.setAttributes([.modificationDate: Date()], ofItemAtPath: url.path) }
                print("\(dryRun ? "would leave" : "unchanged") \(url.path)")
                continue
            }
            if existing != nil && !force {
                StandardError.print(
                    "\(url.path): note: not overwritten because the file exists and differs; "
                        + "pass --force to overwrite it")
                if dryRun { print("would skip \(url.path)") }
                continue
            }
            let verb = existing == nil ? "write" : "overwrite"
            if dryRun {
                print("would \(verb) \(url.path)")
                continue
            }
            do {
                try data.write(to: url, options: .atomic)
                print("\(verb == "write" ? "wrote" : "overwrote") \(url.path)")
            } catch {
                errors.append("\(url.path): error: cannot write the file: \(error.localizedDescription)")
            }
        }
        return errors
    }
}
