/// Why a model could not be loaded.
///
/// Every case can be rendered as compiler-style diagnostics (``diagnostics``), one per problem, each
/// naming the file and, where there is one, the line.
public enum ModelError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Nothing exists at the path.
    case fileNotFound(path: String)
    /// The path exists but is not a `.xcdatamodeld` bundle, a `.xcdatamodel` folder or a `contents` file.
    case notAModel(path: String, reason: String)
    /// A version folder holds the Xcode 3 binary format (`elements`), and it could not be decoded;
    /// `reason` says why (a damaged property list, an archive that is not an Xcode 3 model, …).
    case legacyBinaryFormat(path: String, reason: String)
    /// A `.xcdatamodeld` bundle holds no `.xcdatamodel` version.
    case noVersions(bundle: String)
    /// A version was asked for (or named by `.xccurrentversion`) that the bundle does not hold.
    case versionNotFound(bundle: String, name: String, available: [String], namedBy: String?)
    /// A model file is larger than the loader accepts.
    case fileTooLarge(path: String, size: Int, limit: Int)
    /// The file could not be read.
    case unreadable(path: String, reason: String)
    /// The XML is malformed or the model is inconsistent: every problem found, at once.
    case invalid([ModelDiagnostic])

    /// The problems, as compiler-style diagnostics.
    public var diagnostics: [ModelDiagnostic] {
        switch self {
        case .fileNotFound(let path):
            return [ModelDiagnostic(.error, "no such file or folder", at: SourceLocation(file: path, line: 0))]
        case .notAModel(let path, let reason):
            return [ModelDiagnostic(.error, "not a Core Data model: \(reason)", at: SourceLocation(file: path, line: 0))]
        case .legacyBinaryFormat(let path, let reason):
            return [
                ModelDiagnostic(
                    .error,
                    "cannot decode legacy Xcode 3 model: \(reason); "
                        + "open the model once in Xcode 4 or later and save it to convert it to the XML 'contents' format",
                    at: SourceLocation(file: path, line: 0))
            ]
        case .noVersions(let bundle):
            return [
                ModelDiagnostic(
                    .error, "the bundle holds no .xcdatamodel version", at: SourceLocation(file: bundle, line: 0))
            ]
        case .versionNotFound(let bundle, let name, let available, let namedBy):
            let list = available.isEmpty ? "none" : available.map { "'\($0)'" }.joined(separator: ", ")
            let origin = namedBy.map { SourceLocation(file: $0, line: 0) } ?? SourceLocation(file: bundle, line: 0)
            return [
                ModelDiagnostic(
                    .error, "model version '\(name)' is not in the bundle (versions: \(list))", at: origin)
            ]
        case .fileTooLarge(let path, let size, let limit):
            return [
                ModelDiagnostic(
                    .error,
                    "model file is \(size) bytes, over the \(limit)-byte limit; this is not a model Xcode wrote",
                    at: SourceLocation(file: path, line: 0))
            ]
        case .unreadable(let path, let reason):
            return [ModelDiagnostic(.error, "cannot read file: \(reason)", at: SourceLocation(file: path, line: 0))]
        case .invalid(let diagnostics):
            return diagnostics
        }
    }

    /// The diagnostics, one per line.
    public var description: String {
        diagnostics.map(\.description).joined(separator: "\n")
    }
}
