/// Reads Apple's binary property list format (`bplist00`) from bytes, distrusting every offset,
/// count and reference in them.
///
/// The format is a header, the objects, a table of object offsets, and a 32-byte trailer giving the
/// table's place, the sizes of offsets and references, the object count and the top object.
/// Every read is bounds-checked against the object area; containers that hold themselves, nesting
/// deeper than ``maximumDepth`` and counts larger than the file are refused with a typed error, so
/// hostile input can neither crash the reader nor make it loop. Each object is decoded once (shared
/// objects are cached), so the work is linear in the file size.
struct BinaryPropertyListReader {
    /// How deeply containers may nest. Real keyed archives nest three or four levels.
    static let maximumDepth = 256

    private static let header = Array("bplist00".utf8)
    private static let trailerSize = 32

    private let bytes: [UInt8]
    private let offsetSize: Int
    private let referenceSize: Int
    private let objectCount: Int
    private let topObject: Int
    /// Where the offset table starts; objects live in `8..<offsetTableStart`.
    private let offsetTableStart: Int
    private var decoded: [Int: PropertyListValue] = [:]
    private var containersBeingDecoded: Set<Int> = []

    /// Decodes the top object of a binary property list.
    static func parse(_ bytes: [UInt8]) throws(BinaryPropertyListError) -> PropertyListValue {
        var reader = try BinaryPropertyListReader(bytes)
        return try reader.value(ofObject: reader.topObject, depth: 0)
    }

    private init(_ bytes: [UInt8]) throws(BinaryPropertyListError) {
        guard bytes.starts(with: Self.header) else {
            if bytes.count < Self.header.count, Self.header.starts(with: bytes) { throw .truncated(size: bytes.count) }
            throw .notBinaryPropertyList
        }
        // A header, at least one one-byte object, a one-byte offset table, and the trailer.
        guard bytes.count >= Self.header.count + 2 + Self.trailerSize else { throw .truncated(size: bytes.count) }
        self.bytes = bytes
        let trailer = bytes.count - Self.trailerSize
        offsetSize = Int(bytes[trailer + 6])
        referenceSize = Int(bytes[trailer + 7])
        guard (1...8).contains(offsetSize) else { throw .invalidTrailer("offset size \(offsetSize) is not 1 to 8") }
        guard (1...8).contains(referenceSize) else {
            throw .invalidTrailer("object reference size \(referenceSize) is not 1 to 8")
        }
        let count = Self.bigEndian(bytes[(trailer + 8)..<(trailer + 16)])
        let top = Self.bigEndian(bytes[(trailer + 16)..<(trailer + 24)])
        let table = Self.bigEndian(bytes[(trailer + 24)..<(trailer + 32)])
        guard count >= 1, count <= UInt64(bytes.count) else {
            throw .invalidTrailer("object count \(count) is impossible for a \(bytes.count)-byte file")
        }
        guard top < count else { throw .invalidTrailer("top object \(top) is not among the \(count) objects") }
        // count ≤ file size and offsetSize ≤ 8, so the table's size cannot overflow.
        let tableSize = UInt64(offsetSize) * count
        guard table > UInt64(Self.header.count), table <= UInt64(trailer), tableSize <= UInt64(trailer) - table else {
            throw .invalidTrailer("the offset table (at \(table), \(tableSize) bytes) does not fit between the objects and the trailer")
        }
        objectCount = Int(count)
        topObject = Int(top)
        offsetTableStart = Int(table)
    }

    // MARK: Objects

    private mutating func value(ofObject object: Int, depth: Int) throws(BinaryPropertyListError) -> PropertyListValue {
        guard object >= 0, object < objectCount else { throw .invalidReference(object, objectCount: objectCount) }
        if let known = decoded[object] { return known }
        let start = try offset(ofObject: object)
        guard depth <= Self.maximumDepth else { throw .tooDeep(limit: Self.maximumDepth, offset: start) }
        let marker = bytes[start]
        let info = Int(marker & 0x0F)
        let result: PropertyListValue
        switch marker >> 4 {
        case 0x0:
            switch marker {
            case 0x00, 0x0F: result = .null
            case 0x08: result = .bool(false)
            case 0x09: result = .bool(true)
            default: throw .unknownMarker(marker, offset: start)
            }
        case 0x1:
            result = .integer(try integer(at: start, object: object))
        case 0x2:
            guard info == 2 || info == 3 else { throw .unsupportedNumber(offset: start) }
            result = .real(try real(at: start + 1, size: 1 << info, object: object))
        case 0x3:
            guard marker == 0x33 else { throw .unknownMarker(marker, offset: start) }
            result = .date(try real(at: start + 1, size: 8, object: object))
        case 0x4:
            let (count, data) = try count(at: start, object: object)
            result = .data(Array(try slice(at: data, length: count, object: object, count: count)))
        case 0x5:
            let (count, data) = try count(at: start, object: object)
            let characters = try slice(at: data, length: count, object: object, count: count)
            guard let string = String(validating: characters, as: UTF8.self) else {
                throw .invalidString(offset: start)
            }
            result = .string(string)
        case 0x6:
            let (count, data) = try count(at: start, object: object)
            let length = try product(count, 2, offset: start)
            let raw = try slice(at: data, length: length, object: object, count: count)
            let units = stride(from: raw.startIndex, to: raw.endIndex, by: 2).map {
                UInt16(raw[$0]) << 8 | UInt16(raw[$0 + 1])
            }
            guard let string = String(validating: units, as: UTF16.self) else { throw .invalidString(offset: start) }
            result = .string(string)
        case 0x8:
            guard info < 8 else { throw .unsupportedNumber(offset: start) }
            result = .uid(Self.bigEndian(try slice(at: start + 1, length: info + 1, object: object, count: 1)))
        case 0xA, 0xC:
            let (count, data) = try count(at: start, object: object)
            let references = try references(at: data, count: count, object: object, start: start)
            containersBeingDecoded.insert(object)
            var elements: [PropertyListValue] = []
            elements.reserveCapacity(count)
            for reference in references {
                try enter(reference, from: object)
                elements.append(try value(ofObject: reference, depth: depth + 1))
            }
            containersBeingDecoded.remove(object)
            result = marker >> 4 == 0xA ? .array(elements) : .set(elements)
        case 0xD:
            let (count, data) = try count(at: start, object: object)
            let all = try references(at: data, count: try product(count, 2, offset: start), object: object, start: start)
            containersBeingDecoded.insert(object)
            var dictionary: [String: PropertyListValue] = [:]
            dictionary.reserveCapacity(count)
            for index in 0..<count {
                let keyReference = all[index], valueReference = all[count + index]
                try enter(keyReference, from: object)
                guard case .string(let key) = try value(ofObject: keyReference, depth: depth + 1) else {
                    throw .nonStringKey(offset: start)
                }
                try enter(valueReference, from: object)
                dictionary[key] = try value(ofObject: valueReference, depth: depth + 1)
            }
            containersBeingDecoded.remove(object)
            result = .dictionary(dictionary)
        default:
            throw .unknownMarker(marker, offset: start)
        }
        decoded[object] = result
        return result
    }

    /// Refuses to descend into a container that is still being decoded.
    private func enter(_ reference: Int, from object: Int) throws(BinaryPropertyListError) {
        if containersBeingDecoded.contains(reference) { throw .referenceCycle(object: reference) }
    }

    private func offset(ofObject object: Int) throws(BinaryPropertyListError) -> Int {
        let entry = offsetTableStart + object * offsetSize
        let value = Self.bigEndian(bytes[entry..<(entry + offsetSize)])
        guard value >= UInt64(Self.header.count), value < UInt64(offsetTableStart) else {
            throw .outOfBounds(object: object, offset: Int(clamping: value))
        }
        return Int(value)
    }

    // MARK: Pieces of objects

    /// `length` bytes at `offset`, which must lie inside the object area.
    private func slice(
        at offset: Int, length: Int, object: Int, count: Int
    ) throws(BinaryPropertyListError) -> ArraySlice<UInt8> {
        guard length >= 0, offset <= offsetTableStart, length <= offsetTableStart - offset else {
            if length > bytes.count { throw .countTooLarge(count: count, offset: offset) }
            throw .outOfBounds(object: object, offset: offset)
        }
        return bytes[offset..<(offset + length)]
    }

    private func product(_ count: Int, _ size: Int, offset: Int) throws(BinaryPropertyListError) -> Int {
        let (result, overflow) = count.multipliedReportingOverflow(by: size)
        if overflow { throw .countTooLarge(count: count, offset: offset) }
        return result
    }

    /// An integer object (marker `0x1n`, 2ⁿ big-endian bytes) at `start`.
    private func integer(at start: Int, object: Int) throws(BinaryPropertyListError) -> Int64 {
        let power = Int(bytes[start] & 0x0F)
        guard power <= 4 else { throw .unsupportedNumber(offset: start) }
        let raw = try slice(at: start + 1, length: 1 << power, object: object, count: 1)
        switch power {
        case 0, 1, 2:
            return Int64(Self.bigEndian(raw))
        case 3:
            return Int64(bitPattern: Self.bigEndian(raw))
        default:
            // 128-bit integers hold unsigned 64-bit values; only those that fit in Int64 are accepted.
            let high = Self.bigEndian(raw.prefix(8)), low = Self.bigEndian(raw.suffix(8))
            guard high == 0, low <= UInt64(Int64.max) else { throw .unsupportedNumber(offset: start) }
            return Int64(low)
        }
    }

    private func real(at offset: Int, size: Int, object: Int) throws(BinaryPropertyListError) -> Double {
        let raw = Self.bigEndian(try slice(at: offset, length: size, object: object, count: 1))
        return size == 4 ? Double(Float(bitPattern: UInt32(truncatingIfNeeded: raw))) : Double(bitPattern: raw)
    }

    /// The element count of a data, string or container object, and where its contents start.
    /// A low nibble of `0xF` means the count follows as an integer object.
    private func count(at start: Int, object: Int) throws(BinaryPropertyListError) -> (count: Int, contents: Int) {
        let info = Int(bytes[start] & 0x0F)
        if info != 0x0F { return (info, start + 1) }
        let countStart = start + 1
        let marker = try slice(at: countStart, length: 1, object: object, count: 1)
        guard let first = marker.first, first >> 4 == 0x1, first & 0x0F <= 3 else {
            throw .unknownMarker(marker.first ?? 0, offset: countStart)
        }
        let value = try integer(at: countStart, object: object)
        guard value >= 0, value <= Int64(bytes.count) else { throw .countTooLarge(count: Int(clamping: value), offset: start) }
        return (Int(value), countStart + 1 + (1 << Int(first & 0x0F)))
    }

    private func references(
        at offset: Int, count: Int, object: Int, start: Int
    ) throws(BinaryPropertyListError) -> [Int] {
        let length = try product(count, referenceSize, offset: start)
        let raw = try slice(at: offset, length: length, object: object, count: count)
        return stride(from: raw.startIndex, to: raw.endIndex, by: referenceSize).map {
            Int(clamping: Self.bigEndian(raw[$0..<($0 + referenceSize)]))
        }
    }

    /// A big-endian unsigned integer of up to 8 bytes.
    private static func bigEndian(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        bytes.reduce(0) { $0 << 8 | UInt64($1) }
    }
}
