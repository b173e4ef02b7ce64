import Foundation

/// Where a ``JSONStreamReader`` reads a document from: positional reads of a file, or bytes in memory.
///
/// Reads are positional so that a document can be read more than once (an import reads it twice) and
/// so that an error's line and column can be worked out from the bytes before it.
protocol DocumentSource: AnyObject {
    /// Up to `count` bytes from `offset` (fewer only at the end of the document; none past it). A read
    /// that fails returns no bytes and sets ``failure``.
    func read(at offset: Int, count: Int) -> [UInt8]

    /// Why a read failed, when one did (the reader then sees the document end there).
    var failure: String? { get }

    /// Whether the document is no longer what it was when the source was made (a file written since).
    var hasChanged: Bool { get }
}

extension DocumentSource {
    /// The 1-based line and column (counted in characters) of `offset`.
    func lineAndColumn(of offset: Int) -> (line: Int, column: Int) {
        let chunk = 1 << 16
        var line = 1
        var lineStart = 0
        var position = 0
        while position < offset {
            let bytes = read(at: position, count: min(chunk, offset - position))
            if bytes.isEmpty { break }
            for (index, byte) in bytes.enumerated() where byte == 0x0A {
                line += 1
                lineStart = position + index + 1
            }
            position += bytes.count
        }
        let end = min(offset, position)
        var lineBytes: [UInt8] = []
        var start = lineStart
        while start < end {
            let bytes = read(at: start, count: min(chunk, end - start))
            if bytes.isEmpty { break }
            lineBytes += bytes
            start += bytes.count
        }
        return (line, String(decoding: lineBytes, as: UTF8.self).count + 1)
    }
}

/// A document held in memory.
final class BytesDocumentSource: DocumentSource {
    private let bytes: [UInt8]

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    func read(at offset: Int, count: Int) -> [UInt8] {
        guard offset >= 0, offset < bytes.count, count > 0 else { return [] }
        return Array(bytes[offset..<min(bytes.count, offset + min(count, bytes.count - offset))])
    }

    var failure: String? { nil }

    var hasChanged: Bool { false }
}

/// A document in a file, read a chunk at a time (`pread(2)`), never whole.
final class FileDocumentSource: DocumentSource {
    private let descriptor: Int32
    /// The file's size and modification time when it was opened.
    private let opened: [Int]
    private(set) var failure: String?

    /// Opens the file at `path` for reading; throws the system's reason when it cannot be opened or is
    /// a folder.
    init(path: String) throws(InterchangeError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .store("cannot read the document: \(String(cString: strerror(errno)))") }
        var status = stat()
        if fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR {
            close(descriptor)
            throw .store("cannot read the document: \(String(cString: strerror(EISDIR)))")
        }
        self.descriptor = descriptor
        opened = Self.fingerprint(descriptor)
    }

    var hasChanged: Bool { Self.fingerprint(descriptor) != opened }

    private static func fingerprint(_ descriptor: Int32) -> [Int] {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return [] }
        return [Int(status.st_size), Int(status.st_mtim.tv_sec), Int(status.st_mtim.tv_nsec), Int(status.st_ino)]
    }

    deinit { close(descriptor) }

    func read(at offset: Int, count: Int) -> [UInt8] {
        guard failure == nil, offset >= 0, count > 0 else { return [] }
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let result = bytes.withUnsafeMutableBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                return pread(descriptor, base + filled, count - filled, off_t(offset + filled))
            }
            if result > 0 {
                filled += result
            } else if result == 0 {
                break
            } else if errno != EINTR {
                failure = "cannot read the document: \(String(cString: strerror(errno)))"
                return []
            }
        }
        bytes.removeSubrange(filled...)
        return bytes
    }
}
