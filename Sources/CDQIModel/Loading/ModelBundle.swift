import Foundation

/// The versions a `.xcdatamodeld` bundle holds, and which one is current.
public struct ModelVersions: Sendable, Hashable {
    /// The version names without the `.xcdatamodel` extension (`"Model"`, `"Model 2"`), sorted by name.
    public var names: [String]
    /// The current version's name, from `.xccurrentversion`, or `nil` when the bundle does not say.
    public var current: String?
    /// The path of the `.xccurrentversion` file, when there is one.
    public var currentVersionFile: String?
}

/// Finds the version folders of a `.xcdatamodeld` bundle and reads its `.xccurrentversion`.
enum ModelBundle {
    static let versionExtension = "xcdatamodel"

    static func versions(of bundle: URL, limit: Int) throws(ModelError) -> ModelVersions {
        let manager = FileManager.default
        let entries: [String]
        do {
            entries = try manager.contentsOfDirectory(atPath: bundle.path)
        } catch {
            throw .unreadable(path: bundle.path, reason: "cannot list the bundle folder")
        }
        let names =
            entries
            .filter { $0.hasSuffix(".\(versionExtension)") }
            .filter { isDirectory(bundle.appendingPathComponent($0)) }
            .map(versionName)
            .sorted()
        let plist = bundle.appendingPathComponent(".xccurrentversion")
        guard manager.fileExists(atPath: plist.path) else {
            return ModelVersions(names: names, current: nil, currentVersionFile: nil)
        }
        let current = try currentVersionName(in: plist, limit: limit)
        return ModelVersions(names: names, current: current, currentVersionFile: plist.path)
    }

    /// Reads `_XCCurrentVersionName` from the property list; `nil` for an empty `<dict/>`.
    private static func currentVersionName(in plist: URL, limit: Int) throws(ModelError) -> String? {
        let bytes = try FileReader.read(plist, limit: limit)
        let root = try XMLReader.parse(bytes, path: plist.path, allowDoctype: true)
        let location = SourceLocation(file: plist.path, line: root.line)
        guard root.name == "plist", let dict = root.children.first, dict.name == "dict" else {
            throw .invalid([
                ModelDiagnostic(
                    .error, "expected a property list holding a <dict> (Xcode's .xccurrentversion format)", at: location)
            ])
        }
        // A plist dict alternates <key> and value elements.
        var value: String?
        for (index, element) in dict.children.enumerated()
        where element.name == "key" && element.text.trimmingWhitespace == "_XCCurrentVersionName" {
            if index + 1 < dict.children.count, dict.children[index + 1].name == "string" {
                value = dict.children[index + 1].text
            }
        }
        guard let value else { return nil }
        let trimmed = value.trimmingWhitespace
        guard !trimmed.isEmpty else { return nil }
        return versionName(trimmed)
    }

    /// A version's name without its `.xcdatamodel` extension, however it was written.
    static func versionName(_ written: String) -> String {
        written.hasSuffix(".\(versionExtension)") ? String(written.dropLast(versionExtension.count + 1)) : written
    }

    static func isDirectory(_ url: URL) -> Bool {
        var directory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &directory) && directory.boolValue
    }
}
