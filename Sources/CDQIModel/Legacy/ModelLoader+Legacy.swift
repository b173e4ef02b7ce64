import Foundation

extension ModelLoader {
    /// Loads a legacy Xcode 3 model from the bytes of its `elements` file (a binary keyed archive),
    /// validating it as an XML model is validated. Elements are located at the file, line 0.
    func loadLegacy(
        _ bytes: [UInt8], url: URL, modelName: String, versionName: String?, warnings: [ModelDiagnostic]
    ) throws(ModelError) -> LoadedModel {
        var model: ManagedObjectModel
        var diagnostics: [ModelDiagnostic]
        do {
            (model, diagnostics) = try LegacyModelDecoder.decode(bytes, file: url.path)
        } catch {
            throw .legacyBinaryFormat(path: url.path, reason: error.description)
        }
        model.versionName = versionName
        diagnostics += ModelValidator().problems(in: model)
        let errors = diagnostics.filter { $0.severity == .error }
        if !errors.isEmpty { throw .invalid(errors) }
        return LoadedModel(model: model, warnings: warnings + diagnostics, modelName: modelName, contentsURL: url)
    }
}
