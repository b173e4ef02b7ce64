import ArgumentParser
import CDQIInterchange
import CDQIModel
import CDQIPostgres
import CDQIStore
import Foundation

/// What the store commands (`query`, `import`, `export`) share: finding and loading the model, and
/// reporting errors as `cdqi: error: …`.
enum StoreCommandSupport {
    /// Loads the model `argument` names: a path to a `.xcdatamodeld`/`.xcdatamodel`, or a name found
    /// under the current folder as `cdqi generate` finds it. Problems are printed; the exit status is 1.
    static func loadModel(_ argument: String, version: String?) throws(ExitCode) -> ManagedObjectModel {
        let modelURL: URL
        do {
            modelURL = try ModelLocator(root: URL(fileURLWithPath: FileManager.default.currentDirectoryPath)).locate(argument)
        } catch {
            StandardError.print(error.message)
            throw ExitCode.failure
        }
        do {
            let loaded = try ModelLoader().load(url: modelURL, version: version)
            return loaded.model
        } catch {
            error.diagnostics.forEach { StandardError.print($0.description) }
            throw ExitCode.failure
        }
    }

    /// The store a command argument names: a SQLite file, or a PostgreSQL schema given as a
    /// `postgres://` URL. A URL that does not parse is printed as an error; the exit status is 1.
    static func location(_ store: String) throws(ExitCode) -> StoreLocation {
        do {
            return try StoreLocation(store)
        } catch {
            throw fail(error.description)
        }
    }

    /// Refuses a PostgreSQL URL given to a command that reads SQLite files only (`check`, `migrate`),
    /// naming the URL without its password, rather than looking for a file of that name.
    static func requireFile(_ store: String, command: String) throws(ExitCode) {
        guard StoreLocation.isDatabaseURL(store) else { return }
        let shown = (try? StoreLocation(store))?.description ?? "the PostgreSQL URL"
        throw fail("\(shown): cdqi \(command) takes a SQLite store file, not a PostgreSQL store")
    }

    /// The metadata of the store `store` names, or `nil` when it cannot be read (no store yet, not a
    /// store, unreachable): a file's read-only, a PostgreSQL schema's without creating a store.
    static func metadata(ofStore store: String) -> StoreMetadata? {
        switch try? StoreLocation(store) {
        case .file(let url): return try? StoreMetadata.read(from: url)
        case .postgres(let url): return (try? PostgresStoreProbe(url: url))?.metadata
        case nil: return nil
        }
    }

    /// Loads the model `argument` names to read or write the store at `store`. With `version`, that
    /// version. A bundle given without one opens with the version whose entity version hashes equal the
    /// store's metadata (Core Data's compatibility check), the current one when several match; with its
    /// current version when the store does not exist yet, is not a readable Core Data store, or matches
    /// no version (opening it then refuses it, naming what differs). With no `argument`, the model the
    /// store carries (``loadCarriedModel(store:)``). Problems are printed; the exit status is 1.
    static func loadModel(_ argument: String?, version: String?, forStore store: String) throws(ExitCode) -> ManagedObjectModel {
        guard let argument else { return try loadCarriedModel(store: store) }
        guard version == nil,
            let modelURL = try? ModelLocator(root: URL(fileURLWithPath: FileManager.default.currentDirectoryPath)).locate(argument),
            modelURL.pathExtension == "xcdatamodeld",
            let metadata = metadata(ofStore: store)
        else { return try loadModel(argument, version: version) }
        // The common case, a store of the current version, without loading every version (Wire has 90).
        let current = try loadModel(argument, version: nil)
        if metadata.isCompatible(with: current) { return current }
        let bundle: LoadedBundle
        do {
            bundle = try LoadedBundle(url: modelURL)
        } catch {
            error.diagnostics.forEach { StandardError.print($0.description) }
            throw ExitCode.failure
        }
        return (bundle.version(matching: metadata) ?? bundle.current).model
    }

    /// The model the store at `store` carries in `Z_MODELCACHE` (stores Apple's Core Data wrote), for
    /// `query` and `export` given no model. A missing store, a store without a cache, or a cache that
    /// cannot be decoded or does not match the store's metadata is an error (``MigrationError``); the
    /// exit status is 1.
    static func loadCarriedModel(store: String) throws(ExitCode) -> ManagedObjectModel {
        if case .postgres(let url) = try location(store) {
            do {
                return try PostgresStoreProbe(url: url).carriedModel()
            } catch {
                throw fail(error.description)
            }
        }
        guard FileManager.default.fileExists(atPath: store) else {
            throw fail(QueryError.missingStore(path: store).description)
        }
        do {
            return try ManagedObjectModel(storeModelCacheAt: URL(fileURLWithPath: store))
        } catch {
            // SQLite's own errors do not name the file.
            let message = error.description
            throw fail(message.contains(store) ? message : "\(store): \(message)")
        }
    }

    /// `message`, with the version of the model's bundle the store matches when the store was refused
    /// as written for a different model (`--model-version "X"`).
    static func withVersionHint(_ message: String, model argument: String?, loaded: ManagedObjectModel, store: String) -> String {
        guard let argument, message.contains("the store was written for a different model"),
            let modelURL = try? ModelLocator(root: URL(fileURLWithPath: FileManager.default.currentDirectoryPath)).locate(argument),
            modelURL.pathExtension == "xcdatamodeld"
        else { return message }
        if StoreLocation.isDatabaseURL(store) {
            // The store's metadata says which version wrote it; opening it with each version would
            // cost a connection per version.
            guard let metadata = metadata(ofStore: store), let bundle = try? LoadedBundle(url: modelURL),
                let version = bundle.versions(matching: metadata).first?.model.versionName,
                version != loaded.versionName
            else { return message }
            return message + "\n  The store matches version \"\(version)\" of the bundle: add --model-version \"\(version)\"."
        }
        return MatchingVersion.hint(
            for: message, bundle: modelURL, storeURL: URL(fileURLWithPath: store), loadedVersion: loaded.versionName)
    }

    /// Prints `cdqi: error: message` to standard error and returns the exit status to throw.
    static func fail(_ message: String, usage: Bool = false) -> ExitCode {
        StandardError.print("cdqi: error: \(message)")
        return usage ? ExitCode.validationFailure : ExitCode.failure
    }

    /// Writes text to standard output as is.
    static func write(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }
}
