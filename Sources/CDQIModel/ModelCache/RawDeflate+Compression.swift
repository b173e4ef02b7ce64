import CZlib

extension RawDeflate {
    /// Why bytes could not be compressed: zlib refused, with its message.
    struct CompressionFailure: Error, Sendable, Hashable {
        /// zlib's message, or what step failed.
        var reason: String
    }

    /// Compresses `input` as one raw DEFLATE stream with exactly the settings of Apple's Compression-library
    /// "zlib" (`deflateInit2(level 5, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY)`, reference `z-modelcache.md`
    /// §1), so the bytes equal what Apple's Core Data writes for the same input.
    static func deflate(_ input: [UInt8]) throws(CompressionFailure) -> [UInt8] {
        var stream = z_stream()
        let started = deflateInit2_(
            &stream, 5, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        guard started == Z_OK else { throw CompressionFailure(reason: "zlib could not start compressing (code \(started))") }
        defer { deflateEnd(&stream) }
        guard let sourceSize = uLong(exactly: input.count) else {
            throw CompressionFailure(reason: "\(input.count) bytes are too many for zlib")
        }
        let bound = Int(clamping: deflateBound(&stream, sourceSize))
        var output = [UInt8](repeating: 0, count: max(bound, 64))
        var input = input
        let (code, produced): (Int32, Int) = input.withUnsafeMutableBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                stream.next_in = source.baseAddress
                stream.avail_in = uInt(clamping: source.count)  // larger inputs fail below, unfinished
                stream.next_out = target.baseAddress
                stream.avail_out = uInt(clamping: target.count)
                // deflateBound guarantees one call with Z_FINISH completes the stream.
                let code = CZlib.deflate(&stream, Z_FINISH)
                return (code, target.count - Int(stream.avail_out))
            }
        }
        guard code == Z_STREAM_END else {
            let message = stream.msg.map { String(cString: $0) } ?? "zlib stopped with code \(code)"
            throw CompressionFailure(reason: message)
        }
        return Array(output.prefix(produced))
    }
}
