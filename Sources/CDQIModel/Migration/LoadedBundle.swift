import Foundation

/// Every version of a `.xcdatamodeld` bundle, loaded, in the bundle's version order.
///
/// ```swift
/// let bundle = try LoadedBundle(url: URL(fileURLWithPath: "Fixtures/Library.xcdatamodeld"))
/// bundle.versions.map(\.versionName)   // ["Library", "Library 2"]
/// bundle.current.versionName           // "Library 2"
/// ```
public struct LoadedBundle: Sendable {
    /// The bundle folder.
    public var url: URL
    /// Every version, oldest first: natural order of the version names (`"Model"`, `"Model 2"`, `"Model 10"`).
    /// The current version need not be the last (a bundle may hold versions newer than the one it ships).
    public var versions: [LoadedModel]
    /// The version `.xccurrentversion` names (or the newest).
    public var current: LoadedModel

    /// Loads every version of the bundle at `url`.
    ///
    /// - Throws: ``ModelError`` when the bundle or one of its versions cannot be loaded.
    public init(url: URL, loader: ModelLoader = ModelLoader()) throws(ModelError) {
        let listed = try loader.versions(ofBundle: url)
        guard !listed.names.isEmpty else { throw .noVersions(bundle: url.path) }
        let ordered = listed.names.sorted { Self.naturallyPrecedes($0, $1) }
        var loaded: [LoadedModel] = []
        for name in ordered { loaded.append(try loader.load(url: url, version: name)) }
        self.url = url
        versions = loaded
        let currentName = listed.current ?? ordered.last
        current = loaded.first { $0.model.versionName == currentName } ?? loaded[loaded.count - 1]
    }

    /// The version named `name` (with or without `.xcdatamodel`).
    public func version(named name: String) -> LoadedModel? {
        let bare = ModelBundle.versionName(name)
        return versions.first { $0.model.versionName == bare }
    }

    /// Natural order of version names: runs of digits compare by value, everything else character by
    /// character, and a name before its own extensions (`"Model"` before `"Model 2"`).
    public static func naturallyPrecedes(_ lhs: String, _ rhs: String) -> Bool {
        let left = chunks(lhs)
        let right = chunks(rhs)
        for (a, b) in zip(left, right) where a != b {
            switch (a, b) {
            case (.number(let x, _), .number(let y, _)):
                return x == y ? a < b : x.count != y.count ? x.count < y.count : x < y
            default:
                return a < b
            }
        }
        return left.count < right.count
    }

    private enum Chunk: Comparable {
        /// Digits without leading zeros, and as written.
        case number(String, String)
        case text(String)

        static func < (lhs: Chunk, rhs: Chunk) -> Bool {
            switch (lhs, rhs) {
            case (.number(_, let a), .number(_, let b)): return a < b
            case (.number, .text): return true
            case (.text, .number): return false
            case (.text(let a), .text(let b)): return a < b
            }
        }
    }

    private static func chunks(_ text: String) -> [Chunk] {
        var result: [Chunk] = []
        var current = ""
        var inDigits = false
        func flush() {
            guard !current.isEmpty else { return }
            if inDigits {
                let trimmed = String(current.drop { $0 == "0" })
                result.append(.number(trimmed, current))
            } else {
                result.append(.text(current))
            }
            current = ""
        }
        for character in text {
            let isDigit = character.isASCII && character.isNumber
            if isDigit != inDigits {
                flush()
                inDigits = isDigit
            }
            current.append(character)
        }
        flush()
        return result
    }
}
