import Foundation

/// Reads a whole regular file, refusing other kinds of file (a folder, a FIFO, a device, a socket)
/// and files over a size limit before reading them.
enum FileReader {
    static func read(_ url: URL, limit: Int) throws(ModelError) -> [UInt8] {
        let path = url.path
        // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer, forever.
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR { throw .fileNotFound(path: path) }
            throw .unreadable(path: path, reason: String(cString: strerror(code)))
        }
        defer { close(descriptor) }
        // The kind and size of the file opened, not of whatever the path names by now.
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw .unreadable(path: path, reason: String(cString: strerror(errno)))
        }
        let kind = status.st_mode & S_IFMT
        guard kind == S_IFREG else {
            throw .unreadable(path: path, reason: "it is \(Self.describe(kind)), not a regular file")
        }
        let size = Int(status.st_size)
        if size > limit { throw .fileTooLarge(path: path, size: size, limit: limit) }
        // Read at most one byte past the limit, in case the file grew after it was measured.
        let capacity = limit == Int.max ? Int.max : limit + 1
        var bytes: [UInt8] = []
        bytes.reserveCapacity(min(size, capacity))
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while bytes.count < capacity {
            let wanted = min(buffer.count, capacity - bytes.count)
            let count = buffer.withUnsafeMutableBytes { readFile(descriptor, $0.baseAddress, wanted) }
            if count == 0 { break }
            if count < 0 {
                let code = errno
                if code == EINTR { continue }
                throw .unreadable(path: path, reason: String(cString: strerror(code)))
            }
            bytes.append(contentsOf: buffer[0..<count])
        }
        if bytes.count > limit {
            throw .fileTooLarge(path: path, size: bytes.count, limit: limit)
        }
        return bytes
    }

    /// "a folder", "a FIFO (named pipe)", … for a file type from `st_mode`.
    private static func describe(_ kind: mode_t) -> String {
        switch kind {
        case S_IFDIR: "a folder"
        case S_IFIFO: "a FIFO (named pipe)"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        case S_IFLNK: "a symbolic link"
        default: "a special file"
        }
    }
}

/// The system's `read(2)` (inside ``FileReader`` the name means its own `read`).
private func readFile(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
