import Foundation

/// Reads a whole file, refusing files over a size limit before reading them.
enum FileReader {
    static func read(_ url: URL, limit: Int) throws(ModelError) -> [UInt8] {
        let path = url.path
        let attributes: [FileAttributeKey: Any]
        do {
            attributes = try FileManager.default.attributesOfItem(atPath: path)
        } catch {
            throw .fileNotFound(path: path)
        }
        if let size = (attributes[.size] as? NSNumber)?.intValue, size > limit {
            throw .fileTooLarge(path: path, size: size, limit: limit)
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw .unreadable(path: path, reason: "permission denied or not a regular file")
        }
        defer { try? handle.close() }
        // Read at most one byte past the limit, in case the file grew after it was measured.
        let data: Data?
        do {
            data = try handle.read(upToCount: limit == Int.max ? limit : limit + 1)
        } catch {
            throw .unreadable(path: path, reason: "\(error.localizedDescription)")
        }
        let bytes = [UInt8](data ?? Data())
        if bytes.count > limit {
            throw .fileTooLarge(path: path, size: bytes.count, limit: limit)
        }
        return bytes
    }
}
