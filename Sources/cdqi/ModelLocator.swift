import Foundation

/// Finds a model by name under a folder.
struct ModelLocator {
    /// The folder searched, recursively.
    let root: URL

    /// Why no single model was found.
    enum Failure: Error {
        case rootMissing(String)
        case notFound(name: String, root: String)
        case ambiguous(name: String, matches: [String], root: String)

        var message: String {
            switch self {
            case .rootMissing(let path):
                return "\(path): error: the folder to search does not exist (check --in)"
            case .notFound(let name, let root):
                return "\(root): error: no model named '\(name)' (\(name).xcdatamodeld or \(name).xcdatamodel) "
                    + "in this folder or below; pass the folder that holds it with --in"
            case .ambiguous(let name, let matches, let root):
                return "\(root): error: \(matches.count) models are named '\(name)': "
                    + matches.joined(separator: ", ")
                    + "; pass the folder of the one you mean with --in, or its path instead of its name"
            }
        }
    }

    static let extensions = ["xcdatamodeld", "xcdatamodel"]

    /// The model `argument` names: an existing model path as is, otherwise a name (with or without its
    /// extension) searched for under ``root``. Hidden folders are skipped, and the search does not
    /// look inside model bundles (a bundle's versions are not separate models).
    func locate(_ argument: String) throws(Failure) -> URL {
        let fileManager = FileManager.default
        let asPath = URL(fileURLWithPath: argument)
        if Self.extensions.contains(asPath.pathExtension), fileManager.fileExists(atPath: asPath.path) {
            return asPath.standardizedFileURL
        }
        var isDirectory: ObjCBool = false
        guard fileManager.fileExists(atPath: root.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw .rootMissing(root.path)
        }
        let name =
            Self.extensions.contains(asPath.pathExtension)
            ? asPath.deletingPathExtension().lastPathComponent : argument
        let wanted = Set(Self.extensions.map { "\(name).\($0)" })
        var matches: [String] = []
        if let enumerator = fileManager.enumerator(
            at: root, includingPropertiesForKeys: [.isDirectoryKey], options: [.skipsHiddenFiles])
        {
            for case let url as URL in enumerator where Self.extensions.contains(url.pathExtension) {
                enumerator.skipDescendants()
                if wanted.contains(url.lastPathComponent) {
                    matches.append(url.standardizedFileURL.path)
                }
            }
        }
        matches.sort()
        guard let only = matches.first else { throw .notFound(name: name, root: root.path) }
        guard matches.count == 1 else { throw .ambiguous(name: name, matches: matches, root: root.path) }
        return URL(fileURLWithPath: only)
    }
}
