import Foundation

/// Text written to a file handle in blocks of about 64 KiB, so a long document streams out without a
/// system call per piece and without being held whole in memory.
struct BufferedOutput {
    let handle: FileHandle
    private var buffer = Data()
    private static let blockSize = 1 << 16

    init(handle: FileHandle) {
        self.handle = handle
        buffer.reserveCapacity(Self.blockSize)
    }

    mutating func write(_ text: String) throws {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= Self.blockSize { try flush() }
    }

    mutating func flush() throws {
        guard !buffer.isEmpty else { return }
        try handle.write(contentsOf: buffer)
        buffer.removeAll(keepingCapacity: true)
    }
}
