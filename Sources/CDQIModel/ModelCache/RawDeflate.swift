import CZlib

/// Raw DEFLATE (RFC 1951, no zlib header or trailer) through the system zlib: the compression of
/// Core Data's `Z_MODELCACHE` (Apple's Compression-library "zlib", reference `z-modelcache.md` §1).
enum RawDeflate {
    /// Why bytes could not be inflated.
    enum Failure: Error, Sendable, Hashable {
        /// zlib refused the data (not a DEFLATE stream, or damaged), with zlib's message.
        case damaged(String)
        /// The inflated data grew beyond the limit.
        case tooLarge(limit: Int)
    }

    /// Inflates a whole raw DEFLATE stream; refuses output larger than `limit` bytes.
    static func inflate(_ input: [UInt8], limit: Int) throws(Failure) -> [UInt8] {
        var stream = z_stream()
        guard inflateInit2_(&stream, -15, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw .damaged("zlib could not start inflating")
        }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        var input = input
        let result: Int32 = input.withUnsafeMutableBufferPointer { source in
            stream.next_in = source.baseAddress
            stream.avail_in = uInt(source.count)
            while true {
                let code: Int32 = chunk.withUnsafeMutableBufferPointer { target in
                    stream.next_out = target.baseAddress
                    stream.avail_out = uInt(target.count)
                    return CZlib.inflate(&stream, Z_NO_FLUSH)
                }
                let produced = chunk.count - Int(stream.avail_out)
                output.append(contentsOf: chunk[0..<produced])
                if output.count > limit { return Z_MEM_ERROR }
                if code == Z_STREAM_END { return stream.avail_in == 0 ? Z_OK : Z_DATA_ERROR }
                if code != Z_OK { return code == Z_BUF_ERROR ? Z_DATA_ERROR : code }
            }
        }
        if output.count > limit { throw .tooLarge(limit: limit) }
        guard result == Z_OK else {
            let message = stream.msg.map { String(cString: $0) } ?? "the data is not a complete raw DEFLATE stream"
            throw .damaged(message)
        }
        return output
    }
}
