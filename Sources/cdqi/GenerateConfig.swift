import Foundation

/// The generator options read from a JSON file (`cdqi.json` beside a model), for the build plugin,
/// which cannot pass arguments, and for anyone who wants a model's options kept beside it:
///
/// ```json
/// { "objects": "all", "public": true, "suffix": "Proxy", "exclude": ["Scratch"], "merged": true, "indent": 2 }
/// ```
///
/// Every key is optional. `objects` is `"all"` (a class for every entity, `--objects`) or `"codegen"`
/// (as the model's code generation says, the default). `style` is `"proxies"` (CoreDataQueryInterface's,
/// the default), `"lightyear"` (lightyear/Query's `Queryable` conformances, `--lightyear`) or `"sworm"`
/// (Sworm's structs, `--sworm`). `versions` is `"all"` (the default: a bundle's earlier versions are
/// carried by the generated model, so stores they wrote are migrated when opened) or `"current"`
/// (`--versions current`, for huge bundles); the build plugin also picks these from the products a target depends on. Options given on the command line win over the
/// file's. Unknown keys and values of the wrong type are errors naming the file and the key.
struct GenerateConfig: Equatable {
    var objectsForAll: Bool?
    var isPublic: Bool?
    var suffix: String?
    var exclude: [String] = []
    var merged: Bool?
    var indent: Int?
    /// `"style": "proxies"` (the default), `"lightyear"` (`--lightyear`) or `"sworm"` (`--sworm`).
    var style: String?
    /// `"versions": "all"` (the default: the generated model carries a bundle's earlier versions) or
    /// `"current"` (`--versions current`).
    var versions: String?

    /// The keys a file may hold.
    static let keys = ["objects", "public", "suffix", "exclude", "merged", "indent", "style", "versions"]

    /// A problem with the file, naming it and the key.
    struct Problem: Error, CustomStringConvertible {
        var path: String
        var message: String
        var description: String { "\(path): error: \(message)" }
    }

    /// Reads the file at `path`.
    static func read(path: String) throws(Problem) -> GenerateConfig {
        let type = (try? FileManager.default.attributesOfItem(atPath: path))?[.type] as? FileAttributeType
        guard type == .typeRegular else {
            throw Problem(
                path: path,
                message: type == nil
                    ? "the configuration file does not exist or cannot be read"
                    : "the configuration file is not a regular file")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Problem(path: path, message: "the configuration file cannot be read")
        }
        return try parse(data, path: path)
    }

    /// Parses the JSON text of a configuration file (`path` names it in errors).
    static func parse(_ data: Data, path: String) throws(Problem) -> GenerateConfig {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw Problem(path: path, message: "the configuration is not valid JSON (\(error.localizedDescription))")
        }
        guard let members = object as? [String: Any] else {
            throw Problem(path: path, message: "the configuration must be a JSON object such as {\"objects\": \"all\"}")
        }
        var config = GenerateConfig()
        for key in members.keys.sorted() {
            guard keys.contains(key) else {
                throw Problem(path: path, message: "unknown key '\(key)' (known: \(keys.joined(separator: ", ")))")
            }
        }
        func value<T>(_ key: String, _ type: T.Type, _ expected: String) throws(Problem) -> T? {
            guard let raw = members[key] else { return nil }
            // JSONSerialization gives NSNumber for both numbers and booleans: tell them apart.
            let isBool = (raw as? NSNumber).map { isJSONBoolean($0) } ?? false
            if T.self == Bool.self, !isBool { throw Problem(path: path, message: "'\(key)' must be \(expected)") }
            if T.self == Int.self, isBool { throw Problem(path: path, message: "'\(key)' must be \(expected)") }
            guard let typed = raw as? T else { throw Problem(path: path, message: "'\(key)' must be \(expected)") }
            return typed
        }
        if let objects = try value("objects", String.self, "\"all\" or \"codegen\"") {
            switch objects {
            case "all": config.objectsForAll = true
            case "codegen": config.objectsForAll = false
            default: throw Problem(path: path, message: "'objects' must be \"all\" or \"codegen\", not \"\(objects)\"")
            }
        }
        config.isPublic = try value("public", Bool.self, "true or false")
        config.suffix = try value("suffix", String.self, "a string of letters, digits or underscores")
        config.exclude = try value("exclude", [String].self, "an array of entity names") ?? []
        config.merged = try value("merged", Bool.self, "true or false")
        config.indent = try value("indent", Int.self, "a whole number from 1 to 16")
        if let style = try value("style", String.self, "\"proxies\", \"lightyear\" or \"sworm\"") {
            guard ["proxies", "lightyear", "sworm"].contains(style) else {
                throw Problem(path: path, message: "'style' must be \"proxies\", \"lightyear\" or \"sworm\", not \"\(style)\"")
            }
            config.style = style
        }
        if let versions = try value("versions", String.self, "\"all\" or \"current\"") {
            guard ["all", "current"].contains(versions) else {
                throw Problem(path: path, message: "'versions' must be \"all\" or \"current\", not \"\(versions)\"")
            }
            config.versions = versions
        }
        return config
    }
}

/// Whether a number read by `JSONSerialization` was written as `true` or `false`.
private func isJSONBoolean(_ number: NSNumber) -> Bool {
    // On Linux, booleans come back as NSNumber holding a Bool; their objCType is "c" (char) and their
    // value is 0 or 1, as for Int8 numbers, which JSON never produces.
    String(cString: number.objCType) == "c"
}
