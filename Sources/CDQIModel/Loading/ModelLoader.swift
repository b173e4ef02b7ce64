import Foundation

/// A model read from disk, with the warnings found while reading it.
public struct LoadedModel: Sendable {
    /// The model.
    public var model: ManagedObjectModel
    /// Things that were ignored or guessed (unknown elements, a chosen version), compiler-style.
    public var warnings: [ModelDiagnostic]
    /// The model's name: the bundle's (or bare version folder's) name without its extension.
    public var modelName: String
    /// The file that was read: a `contents` file, or the `elements` file of a legacy Xcode 3 model.
    public var contentsURL: URL
}

/// Loads managed object models from `.xcdatamodeld` bundles, `.xcdatamodel` folders and `contents` files.
///
/// ```swift
/// let loaded = try ModelLoader().load(url: URL(fileURLWithPath: "Fixtures/Company.xcdatamodeld"))
/// print(loaded.model.entities.map(\.name))   // ["Department", "Employee", "TestEntity"]
/// ```
///
/// The XML is read with libxml2 with the network off and no entity expansion; a file with a DOCTYPE is
/// refused. Every problem in a file is reported at once, each with its file and line.
public struct ModelLoader: Sendable {
    /// The largest model file accepted, in bytes.
    public var maximumFileSize: Int

    /// Creates a loader. Xcode's largest real models are a few hundred kilobytes per version, so the
    /// default limit of 64 MiB only stops files that are not models.
    public init(maximumFileSize: Int = 64 << 20) {
        self.maximumFileSize = maximumFileSize
    }

    /// The versions of a `.xcdatamodeld` bundle and the current one.
    public func versions(ofBundle url: URL) throws(ModelError) -> ModelVersions {
        guard ModelBundle.isDirectory(url) else { throw .fileNotFound(path: url.path) }
        return try ModelBundle.versions(of: url, limit: maximumFileSize)
    }

    /// Loads a model.
    ///
    /// - Parameters:
    ///   - url: a `.xcdatamodeld` bundle, a `.xcdatamodel` folder, or a `contents` file.
    ///   - version: for a bundle, the version to load (`"Model 2"` or `"Model 2.xcdatamodel"`); `nil`
    ///     loads the current version named by `.xccurrentversion`, or the only version.
    /// - Throws: ``ModelError``, carrying every problem found, each with its file and line.
    public func load(url: URL, version: String? = nil) throws(ModelError) -> LoadedModel {
        let path = url.path
        guard FileManager.default.fileExists(atPath: path) else { throw .fileNotFound(path: path) }
        if !ModelBundle.isDirectory(url) {
            return try loadContents(url, modelName: modelName(forContents: url), versionName: nil, warnings: [])
        }
        switch url.pathExtension {
        case "xcdatamodeld":
            return try loadBundle(url, version: version)
        case ModelBundle.versionExtension:
            let name = url.deletingPathExtension().lastPathComponent
            return try loadVersionFolder(url, modelName: name, versionName: nil, warnings: [])
        default:
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("contents").path) {
                let name = url.deletingPathExtension().lastPathComponent
                return try loadVersionFolder(url, modelName: name, versionName: nil, warnings: [])
            }
            throw .notAModel(path: path, reason: "expected a .xcdatamodeld bundle, a .xcdatamodel folder or a contents file")
        }
    }

    private func loadBundle(_ bundle: URL, version: String?) throws(ModelError) -> LoadedModel {
        let versions = try ModelBundle.versions(of: bundle, limit: maximumFileSize)
        let modelName = bundle.deletingPathExtension().lastPathComponent
        var warnings: [ModelDiagnostic] = []
        let chosen: String
        if let requested = version {
            let name = ModelBundle.versionName(requested)
            guard versions.names.contains(name) else {
                throw .versionNotFound(bundle: bundle.path, name: name, available: versions.names, namedBy: nil)
            }
            chosen = name
        } else if let current = versions.current {
            guard versions.names.contains(current) else {
                throw .versionNotFound(
                    bundle: bundle.path, name: current, available: versions.names, namedBy: versions.currentVersionFile)
            }
            chosen = current
        } else if versions.names.count == 1 {
            chosen = versions.names[0]
        } else if versions.names.isEmpty {
            throw .noVersions(bundle: bundle.path)
        } else if let named = versions.names.filter({ modelName.hasSuffix($0) }).max(by: { $0.count < $1.count }) {
            // Xcode names the first version after the bundle; prefer it, as the newest cannot be told.
            chosen = named
            warnings.append(
                ModelDiagnostic(
                    .warning,
                    "the bundle has \(versions.names.count) versions but no current version; using '\(named)' (choose another with --model-version)",
                    at: SourceLocation(file: versions.currentVersionFile ?? bundle.path, line: 0)))
        } else {
            throw .invalid([
                ModelDiagnostic(
                    .error,
                    "the bundle has \(versions.names.count) versions (\(versions.names.map { "'\($0)'" }.joined(separator: ", "))) and no current version; choose one",
                    at: SourceLocation(file: versions.currentVersionFile ?? bundle.path, line: 0))
            ])
        }
        let folder = bundle.appendingPathComponent("\(chosen).\(ModelBundle.versionExtension)")
        return try loadVersionFolder(folder, modelName: modelName, versionName: chosen, warnings: warnings)
    }

    private func loadVersionFolder(
        _ folder: URL, modelName: String, versionName: String?, warnings: [ModelDiagnostic]
    ) throws(ModelError) -> LoadedModel {
        let contents = folder.appendingPathComponent("contents")
        if FileManager.default.fileExists(atPath: contents.path) {
            return try loadContents(contents, modelName: modelName, versionName: versionName, warnings: warnings)
        }
        let elements = folder.appendingPathComponent("elements")
        if FileManager.default.fileExists(atPath: elements.path) {
            let bytes = try FileReader.read(elements, limit: maximumFileSize)
            return try loadLegacy(bytes, url: elements, modelName: modelName, versionName: versionName, warnings: warnings)
        }
        throw .notAModel(path: folder.path, reason: "the version folder holds no 'contents' file")
    }

    private func loadContents(
        _ url: URL, modelName: String, versionName: String?, warnings: [ModelDiagnostic]
    ) throws(ModelError) -> LoadedModel {
        let bytes = try FileReader.read(url, limit: maximumFileSize)
        if bytes.starts(with: Array("bplist00".utf8)) {
            return try loadLegacy(bytes, url: url, modelName: modelName, versionName: versionName, warnings: warnings)
        }
        let root = try XMLReader.parse(bytes, path: url.path, allowDoctype: false)
        var (model, diagnostics) = ModelParser.parse(root, file: url.path)
        model.versionName = versionName
        // Validate even a model with parse errors, so that every problem is reported at once; a line
        // that already has a parse error gets no second, consequential one.
        let linesWithErrors = Set(diagnostics.filter { $0.severity == .error }.compactMap { $0.location?.line })
        diagnostics += ModelValidator().problems(in: model).filter {
            guard let line = $0.location?.line else { return true }
            return !linesWithErrors.contains(line)
        }
        let errors = diagnostics.filter { $0.severity == .error }
        if !errors.isEmpty { throw .invalid(errors) }
        return LoadedModel(
            model: model, warnings: warnings + diagnostics, modelName: modelName, contentsURL: url)
    }

    /// A `contents` file's model name is its folder's name (`Model 2.xcdatamodel/contents` → the bundle's
    /// name when inside one, else the folder's).
    private func modelName(forContents url: URL) -> String {
        let folder = url.deletingLastPathComponent()
        let parent = folder.deletingLastPathComponent()
        if parent.pathExtension == "xcdatamodeld" { return parent.deletingPathExtension().lastPathComponent }
        if folder.pathExtension == ModelBundle.versionExtension { return folder.deletingPathExtension().lastPathComponent }
        return url.deletingPathExtension().lastPathComponent
    }
}
