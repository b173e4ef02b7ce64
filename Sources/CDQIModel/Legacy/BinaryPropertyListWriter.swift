/// Writes Apple's binary property list format (`bplist00`), the inverse of ``BinaryPropertyListReader``.
///
/// The layout is the one CoreFoundation writes: the 8-byte header; every object once, the top object
/// first and each container before its contents; a table of object offsets; and the 32-byte trailer
/// (five unused bytes, the sort version, the offset size, the reference size, then the object count, the
/// top object and the table's offset as big-endian 64-bit integers). Values that are not containers
/// (strings, numbers, dates, data, references, booleans) are written once and shared, as CoreFoundation
/// does; containers are written where they occur. Integers take the fewest of 1, 2, 4 or 8 bytes (the
/// first three unsigned, negative numbers always 8), strings are ASCII when every character is, UTF-16
/// big-endian otherwise, and dictionary keys are written in UTF-8 order so the output is deterministic.
struct BinaryPropertyListWriter {
    /// One object of the table: the bytes of a value, or a container whose references are known once
    /// every object has its number.
    private enum Node {
        case scalar([UInt8])
        /// A marker nibble (`0xA` array, `0xC` set, `0xD` dictionary), the element count and the
        /// referenced objects (a dictionary's keys, then its values).
        case container(marker: UInt8, count: Int, references: [Int])
    }

    /// A value that is written once however often it occurs; reals and dates by bit pattern, so
    /// `0.0` and `-0.0` stay apart.
    private enum SharedKey: Hashable {
        case null, bool(Bool), integer(Int64), real(UInt64), date(UInt64), data([UInt8]), string(String), uid(UInt64)
    }

    private var nodes: [Node] = []
    private var shared: [SharedKey: Int] = [:]

    /// The binary property list of `value`.
    static func write(_ value: PropertyListValue) -> [UInt8] {
        var writer = BinaryPropertyListWriter()
        let top = writer.flatten(value)
        return writer.serialize(top: top)
    }

    // MARK: Object table

    /// Adds `value` (and what it holds) to the object table; returns its object number.
    private mutating func flatten(_ value: PropertyListValue) -> Int {
        switch value {
        case .array(let elements), .set(let elements):
            let number = reserve()
            let references = elements.map { flatten($0) }
            let marker: UInt8 = if case .array = value { 0xA } else { 0xC }
            nodes[number] = .container(marker: marker, count: elements.count, references: references)
            return number
        case .dictionary(let dictionary):
            let number = reserve()
            let keys = dictionary.keys.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
            let keyReferences = keys.map { flatten(.string($0)) }
            let valueReferences = keys.map { flatten(dictionary[$0] ?? .null) }
            nodes[number] = .container(marker: 0xD, count: keys.count, references: keyReferences + valueReferences)
            return number
        case .null: return share(.null) { [0x00] }
        case .bool(let flag): return share(.bool(flag)) { [flag ? 0x09 : 0x08] }
        case .integer(let number): return share(.integer(number)) { Self.integerBytes(number) }
        case .real(let number):
            return share(.real(number.bitPattern)) { [0x23] + Self.bigEndian(number.bitPattern, size: 8) }
        case .date(let seconds):
            return share(.date(seconds.bitPattern)) { [0x33] + Self.bigEndian(seconds.bitPattern, size: 8) }
        case .data(let bytes): return share(.data(bytes)) { Self.header(0x4, count: bytes.count) + bytes }
        case .string(let text): return share(.string(text)) { Self.stringBytes(text) }
        case .uid(let reference):
            return share(.uid(reference)) {
                let size = Self.byteCount(reference)
                return [0x80 | UInt8(size - 1)] + Self.bigEndian(reference, size: size)
            }
        }
    }

    private mutating func reserve() -> Int {
        nodes.append(.scalar([]))
        return nodes.count - 1
    }

    private mutating func share(_ key: SharedKey, _ bytes: () -> [UInt8]) -> Int {
        if let known = shared[key] { return known }
        nodes.append(.scalar(bytes()))
        shared[key] = nodes.count - 1
        return nodes.count - 1
    }

    // MARK: File

    private func serialize(top: Int) -> [UInt8] {
        let referenceSize = Self.byteCount(UInt64(max(nodes.count - 1, 0)))
        var output = Array("bplist00".utf8)
        var offsets: [UInt64] = []
        offsets.reserveCapacity(nodes.count)
        for node in nodes {
            offsets.append(UInt64(output.count))
            switch node {
            case .scalar(let bytes):
                output += bytes
            case .container(let marker, let count, let references):
                output += Self.header(marker, count: count)
                for reference in references { output += Self.bigEndian(UInt64(reference), size: referenceSize) }
            }
        }
        let tableOffset = UInt64(output.count)
        let offsetSize = Self.byteCount(offsets.last ?? 0)
        for offset in offsets { output += Self.bigEndian(offset, size: offsetSize) }
        output += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(referenceSize)]
        output += Self.bigEndian(UInt64(nodes.count), size: 8)
        output += Self.bigEndian(UInt64(top), size: 8)
        output += Self.bigEndian(tableOffset, size: 8)
        return output
    }

    // MARK: Encodings

    /// A marker byte with the count in its low nibble, or `0xF` there and the count as an integer object.
    private static func header(_ marker: UInt8, count: Int) -> [UInt8] {
        if count < 15 { return [marker << 4 | UInt8(count)] }
        return [marker << 4 | 0x0F] + integerBytes(Int64(count))
    }

    private static func integerBytes(_ number: Int64) -> [UInt8] {
        if number < 0 { return [0x13] + bigEndian(UInt64(bitPattern: number), size: 8) }
        let size = byteCount(UInt64(number))
        let power: UInt8 =
            switch size {
            case 1: 0
            case 2: 1
            case 4: 2
            default: 3
            }
        return [0x10 | power] + bigEndian(UInt64(number), size: size)
    }

    private static func stringBytes(_ text: String) -> [UInt8] {
        let utf8 = Array(text.utf8)
        if utf8.allSatisfy({ $0 < 0x80 }) { return header(0x5, count: utf8.count) + utf8 }
        let units = Array(text.utf16)
        var bytes = header(0x6, count: units.count)
        bytes.reserveCapacity(bytes.count + 2 * units.count)
        for unit in units { bytes += [UInt8(truncatingIfNeeded: unit >> 8), UInt8(truncatingIfNeeded: unit)] }
        return bytes
    }

    /// The fewest of 1, 2, 4 or 8 bytes that hold `value`.
    private static func byteCount(_ value: UInt64) -> Int {
        if value <= 0xFF { return 1 }
        if value <= 0xFFFF { return 2 }
        if value <= 0xFFFF_FFFF { return 4 }
        return 8
    }

    private static func bigEndian(_ value: UInt64, size: Int) -> [UInt8] {
        (0..<size).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64(size - 1 - $0))) }
    }
}
