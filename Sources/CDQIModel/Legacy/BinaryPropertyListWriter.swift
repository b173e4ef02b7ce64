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
    /// One object of the table: a value that is not a container (its bytes are written when the file
    /// is), or a container whose references are known once every object has its number.
    private enum Node {
        case scalar(PropertyListValue)
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
        let key: SharedKey
        switch value {
        case .array(let elements), .set(let elements):
            let number = reserve()
            var references: [Int] = []
            references.reserveCapacity(elements.count)
            for element in elements { references.append(flatten(element)) }
            let marker: UInt8 = if case .array = value { 0xA } else { 0xC }
            nodes[number] = .container(marker: marker, count: elements.count, references: references)
            return number
        case .dictionary(let dictionary):
            let number = reserve()
            let entries = dictionary.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
            var references = [Int](repeating: 0, count: 2 * entries.count)
            for (index, entry) in entries.enumerated() {
                references[index] = flatten(.string(entry.key))
                references[entries.count + index] = flatten(entry.value)
            }
            nodes[number] = .container(marker: 0xD, count: entries.count, references: references)
            return number
        case .null: key = .null
        case .bool(let flag): key = .bool(flag)
        case .integer(let number): key = .integer(number)
        case .real(let number): key = .real(number.bitPattern)
        case .date(let seconds): key = .date(seconds.bitPattern)
        case .data(let bytes): key = .data(bytes)
        case .string(let text): key = .string(text)
        case .uid(let reference): key = .uid(reference)
        }
        if let known = shared[key] { return known }
        nodes.append(.scalar(value))
        shared[key] = nodes.count - 1
        return nodes.count - 1
    }

    private mutating func reserve() -> Int {
        nodes.append(.scalar(.null))
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
            case .scalar(let value):
                Self.append(value, to: &output)
            case .container(let marker, let count, let references):
                Self.appendHeader(marker, count: count, to: &output)
                for reference in references { Self.appendBigEndian(UInt64(reference), size: referenceSize, to: &output) }
            }
        }
        let tableOffset = UInt64(output.count)
        let offsetSize = Self.byteCount(offsets.last ?? 0)
        for offset in offsets { Self.appendBigEndian(offset, size: offsetSize, to: &output) }
        output += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(referenceSize)]
        Self.appendBigEndian(UInt64(nodes.count), size: 8, to: &output)
        Self.appendBigEndian(UInt64(top), size: 8, to: &output)
        Self.appendBigEndian(tableOffset, size: 8, to: &output)
        return output
    }

    // MARK: Encodings

    /// Appends a value that is not a container.
    private static func append(_ value: PropertyListValue, to output: inout [UInt8]) {
        switch value {
        case .null: output.append(0x00)
        case .bool(let flag): output.append(flag ? 0x09 : 0x08)
        case .integer(let number): appendInteger(number, to: &output)
        case .real(let number):
            output.append(0x23)
            appendBigEndian(number.bitPattern, size: 8, to: &output)
        case .date(let seconds):
            output.append(0x33)
            appendBigEndian(seconds.bitPattern, size: 8, to: &output)
        case .data(let bytes):
            appendHeader(0x4, count: bytes.count, to: &output)
            output += bytes
        case .string(let text): appendString(text, to: &output)
        case .uid(let reference):
            let size = byteCount(reference)
            output.append(0x80 | UInt8(size - 1))
            appendBigEndian(reference, size: size, to: &output)
        case .array, .set, .dictionary:
            return  // containers are nodes of their own
        }
    }

    /// A marker byte with the count in its low nibble, or `0xF` there and the count as an integer object.
    private static func appendHeader(_ marker: UInt8, count: Int, to output: inout [UInt8]) {
        if count < 15 {
            output.append(marker << 4 | UInt8(count))
        } else {
            output.append(marker << 4 | 0x0F)
            appendInteger(Int64(count), to: &output)
        }
    }

    private static func appendInteger(_ number: Int64, to output: inout [UInt8]) {
        if number < 0 {
            output.append(0x13)
            appendBigEndian(UInt64(bitPattern: number), size: 8, to: &output)
            return
        }
        let size = byteCount(UInt64(number))
        let power: UInt8 =
            switch size {
            case 1: 0
            case 2: 1
            case 4: 2
            default: 3
            }
        output.append(0x10 | power)
        appendBigEndian(UInt64(number), size: size, to: &output)
    }

    private static func appendString(_ text: String, to output: inout [UInt8]) {
        let utf8 = text.utf8
        if utf8.allSatisfy({ $0 < 0x80 }) {
            appendHeader(0x5, count: utf8.count, to: &output)
            output.append(contentsOf: utf8)
            return
        }
        let units = text.utf16
        appendHeader(0x6, count: units.count, to: &output)
        output.reserveCapacity(output.count + 2 * units.count)
        for unit in units {
            output.append(UInt8(truncatingIfNeeded: unit >> 8))
            output.append(UInt8(truncatingIfNeeded: unit))
        }
    }

    /// The fewest of 1, 2, 4 or 8 bytes that hold `value`.
    private static func byteCount(_ value: UInt64) -> Int {
        if value <= 0xFF { return 1 }
        if value <= 0xFFFF { return 2 }
        if value <= 0xFFFF_FFFF { return 4 }
        return 8
    }

    private static func appendBigEndian(_ value: UInt64, size: Int, to output: inout [UInt8]) {
        var shift = 8 * (size - 1)
        while shift >= 0 {
            output.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
            shift -= 8
        }
    }
}
