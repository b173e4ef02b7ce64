import CDQIModel
import CDQIStore
import Foundation

/// Finds which version of a model bundle a store was written for, to say so when a store is refused
/// as "written for a different model".
public enum MatchingVersion {
    /// The name of the first version of `bundle` (other than `excluded`) that the store at `storeURL`
    /// opens with, or `nil`. Each try opens the store read-only, so the file does not change.
    public static func find(bundle: URL, storeURL: URL, excluding excluded: String?) -> String? {
        let loader = ModelLoader()
        guard let names = try? loader.versions(ofBundle: bundle).names else { return nil }
        for name in names where name != excluded {
            guard let model = try? loader.load(url: bundle, version: name).model else { continue }
            if (try? SQLiteStore(model: model, url: storeURL, readOnly: true)) != nil { return name }
        }
        return nil
    }

    /// `message` with a last line naming the matching version, when it is about a store written for a
    /// different model and the bundle holds the version the store was written for.
    public static func hint(
        for message: String, bundle: URL, storeURL: URL, loadedVersion: String?
    ) -> String {
        guard message.contains("the store was written for a different model"),
            let name = find(bundle: bundle, storeURL: storeURL, excluding: loadedVersion)
        else { return message }
        return message + "\n  The store matches version \"\(name)\" of the bundle: add --model-version \"\(name)\"."
    }
}
