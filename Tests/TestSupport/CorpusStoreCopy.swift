import Foundation

/// Copies of the shared corpus's stores, for tests that open them.
public enum CorpusStoreCopy {
    /// Copies the store `name` in `stores` with its `-wal` and `-shm` sidecars into `folder` (opening the
    /// original would checkpoint and change it) and returns the copy's path.
    public static func copy(named name: String, from stores: URL, into folder: URL) throws -> URL {
        let target = folder.appendingPathComponent(name)
        for suffix in ["", "-wal", "-shm"] {
            let source = stores.appendingPathComponent(name + suffix)
            if FileManager.default.fileExists(atPath: source.path) {
                try FileManager.default.copyItem(at: source, to: URL(fileURLWithPath: target.path + suffix))
            }
        }
        return target
    }
}
