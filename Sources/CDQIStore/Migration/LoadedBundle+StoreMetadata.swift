import CDQIModel
import Foundation

extension LoadedBundle {
    /// The versions whose entity version hashes equal the store's, oldest first. Several versions can
    /// match when they differ only in what the hashes leave out (transient attributes, indexes, defaults).
    public func versions(matching metadata: StoreMetadata) -> [LoadedModel] {
        versions.filter { metadata.isCompatible(with: $0.model) }
    }

    /// The version that wrote a store with this metadata: the current version when it matches, else the
    /// newest matching one; `nil` when none matches.
    public func version(matching metadata: StoreMetadata) -> LoadedModel? {
        let matches = versions(matching: metadata)
        if let current = matches.first(where: { $0.model.versionName == current.model.versionName }) {
            return current
        }
        return matches.last
    }

    /// The version whose entity hashes differ from the store's in the fewest entities (the newest of
    /// equals), and those differences: what ``version(matching:)`` falls back to explaining.
    public func nearestVersion(to metadata: StoreMetadata) -> (version: LoadedModel, differences: [String]) {
        var best = (version: current, differences: metadata.incompatibilities(with: current.model))
        for version in versions.reversed() {
            let differences = metadata.incompatibilities(with: version.model)
            if differences.count < best.differences.count { best = (version, differences) }
        }
        return best
    }
}
