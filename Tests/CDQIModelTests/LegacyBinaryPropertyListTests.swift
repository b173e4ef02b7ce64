import Foundation
import Testing

@testable import CDQIModel

/// The binary property list reader: Foundation-written files decode to the same values, and hostile
/// files give a typed error naming the problem, never a crash or a hang.
@Suite("Binary property lists")
struct LegacyBinaryPropertyListTests {
    private static let header = Array("bplist00".utf8)

    /// A trailer for hand-made files: 1-byte offsets and references.
    private static func trailer(count: Int, top: Int = 0, table: Int) -> [UInt8] {
        [0, 0, 0, 0, 0, 0, 1, 1] + TestPlist.bigEndian(count, size: 8) + TestPlist.bigEndian(top, size: 8)
            + TestPlist.bigEndian(table, size: 8)
    }

    /// A file holding `objects` (each already encoded, with 1-byte references) at consecutive offsets.
    private static func file(_ objects: [[UInt8]], top: Int = 0) -> [UInt8] {
        var bytes = header
        var offsets: [UInt8] = []
        for object in objects {
            offsets.append(UInt8(bytes.count))
            bytes += object
        }
        let table = bytes.count
        return bytes + offsets + trailer(count: objects.count, top: top, table: table)
    }

    private func error(_ bytes: [UInt8]) -> BinaryPropertyListError? {
        do {
            _ = try BinaryPropertyListReader.parse(bytes)
            return nil
        } catch {
            return error
        }
    }

    @Test("a file written by Foundation decodes to the values written")
    func foundationWritten() throws {
        let written: [String: Any] = [
            "small": 7, "large": 5_000_000_000, "negative": -3, "ascii": "plain", "unicode": "Grüße ✓",
            "list": [1, 2.5, "x"], "blob": Data([1, 2, 3]), "nested": ["inner": "value"],
        ]
        let data = try PropertyListSerialization.data(fromPropertyList: written, format: .binary, options: 0)
        let value = try BinaryPropertyListReader.parse([UInt8](data))
        guard case .dictionary(let dictionary) = value else {
            Issue.record("expected a dictionary, got \(value)")
            return
        }
        #expect(dictionary.count == 8)
        #expect(dictionary["small"] == .integer(7))
        #expect(dictionary["large"] == .integer(5_000_000_000))
        #expect(dictionary["negative"] == .integer(-3))
        #expect(dictionary["ascii"] == .string("plain"))
        #expect(dictionary["unicode"] == .string("Grüße ✓"))
        #expect(dictionary["list"] == .array([.integer(1), .real(2.5), .string("x")]))
        #expect(dictionary["blob"] == .data([1, 2, 3]))
        #expect(dictionary["nested"] == .dictionary(["inner": .string("value")]))
    }

    @Test("objects shared by several containers are not mistaken for a cycle")
    func sharedObjects() throws {
        // Object 0 is an array referring twice to object 1, the string "x".
        let bytes = Self.file([[0xA2, 0x01, 0x01], [0x51, 0x78]])
        #expect(try BinaryPropertyListReader.parse(bytes) == .array([.string("x"), .string("x")]))
    }

    @Test("a keyed archive's UIDs and booleans decode")
    func uidsAndBooleans() throws {
        let bytes = Self.file([[0xA3, 0x01, 0x02, 0x03], [0x80, 0x2A], [0x09], [0x81, 0x01, 0x00]])
        #expect(try BinaryPropertyListReader.parse(bytes) == .array([.uid(42), .bool(true), .uid(256)]))
    }

    @Test("bytes that are not a binary property list")
    func notBinary() {
        #expect(error(Array("<?xml version=\"1.0\"?>".utf8)) == .notBinaryPropertyList)
    }

    @Test("truncated files")
    func truncated() {
        #expect(error([]) == .truncated(size: 0))
        #expect(error(Array("bplis".utf8)) == .truncated(size: 5))
        // A header, an empty dictionary and its offset, but no trailer.
        #expect(error(Self.header + [0xD0, 0x08]) == .truncated(size: 10))
        // A valid file cut anywhere fails with an error, whichever it is.
        let whole = Self.file([[0xA2, 0x01, 0x02], [0x51, 0x78], [0x10, 0x05]])
        #expect((try? BinaryPropertyListReader.parse(whole)) == .array([.string("x"), .integer(5)]))
        for length in 0..<whole.count {
            #expect(error(Array(whole.prefix(length))) != nil, "a file cut to \(length) bytes was accepted")
        }
    }

    @Test("an offset table entry pointing outside the file")
    func offsetOutOfBounds() {
        // One object (an empty dictionary at 8), but the offset table says it is at 200.
        let bytes = Self.header + [0xD0] + [200] + Self.trailer(count: 1, table: 9)
        #expect(error(bytes) == .outOfBounds(object: 0, offset: 200))
        // The offset table itself placed past the end of the file.
        let misplaced = Self.header + [0xD0] + [0x08] + Self.trailer(count: 1, table: 1000)
        #expect(error(misplaced).map { if case .invalidTrailer = $0 { true } else { false } } == true)
    }

    @Test("impossible trailer values")
    func impossibleTrailer() {
        var bytes = Self.file([[0xD0]])
        bytes[bytes.count - 32 + 6] = 0  // offset size 0
        #expect(error(bytes) == .invalidTrailer("offset size 0 is not 1 to 8"))
        let hugeCount = Self.header + [0xD0, 0x08] + Self.trailer(count: 1 << 40, table: 9)
        #expect(error(hugeCount) == .invalidTrailer("object count 1099511627776 is impossible for a 42-byte file"))
        let badTop = Self.header + [0xD0, 0x08] + Self.trailer(count: 1, top: 3, table: 9)
        #expect(error(badTop) == .invalidTrailer("top object 3 is not among the 1 objects"))
    }

    @Test("an array that contains itself")
    func directCycle() {
        #expect(error(Self.file([[0xA1, 0x00]])) == .referenceCycle(object: 0))
    }

    @Test("two arrays that contain each other")
    func indirectCycle() {
        #expect(error(Self.file([[0xA1, 0x01], [0xA1, 0x00]])) == .referenceCycle(object: 0))
    }

    @Test("a dictionary whose value is the dictionary itself")
    func dictionaryCycle() {
        #expect(error(Self.file([[0xD1, 0x01, 0x00], [0x51, 0x6B]])) == .referenceCycle(object: 0))
    }

    @Test("a count far larger than the file")
    func hugeCount() {
        // An array claiming 2^31 - 1 elements, its count written as a following 4-byte integer.
        let bytes = Self.file([[0xAF, 0x12, 0x7F, 0xFF, 0xFF, 0xFF]])
        #expect(error(bytes) == .countTooLarge(count: 2_147_483_647, offset: 8))
        // A string claiming 2^62 bytes.
        let string = Self.file([[0x5F, 0x13, 0x40, 0, 0, 0, 0, 0, 0, 0]])
        #expect(error(string) == .countTooLarge(count: 1 << 62, offset: 8))
        // 14 references, but the file ends first.
        #expect(error(Self.file([[0xAE, 0x00]])) == .outOfBounds(object: 0, offset: 9))
    }

    @Test("references to objects that do not exist")
    func danglingReference() {
        #expect(error(Self.file([[0xA1, 0x05]])) == .invalidReference(5, objectCount: 1))
    }

    @Test("nesting deeper than the limit")
    func tooDeep() {
        // 300 arrays, each holding the next (2-byte references), written by the test writer.
        var value = TestPlist.string("bottom")
        for _ in 0..<300 { value = .array([value]) }
        let bytes = value.binary()
        guard case .tooDeep(let limit, _)? = error(bytes) else {
            Issue.record("expected tooDeep, got \(String(describing: error(bytes)))")
            return
        }
        #expect(limit == 256)
        // 200 levels are within the limit.
        var shallow = TestPlist.string("bottom")
        for _ in 0..<200 { shallow = .array([shallow]) }
        #expect(error(shallow.binary()) == nil)
    }

    @Test("markers, numbers, strings and keys the format does not allow")
    func badObjects() {
        #expect(error(Self.file([[0x70]])) == .unknownMarker(0x70, offset: 8))
        #expect(error(Self.file([[0x15, 0, 0, 0, 0]])) == .unsupportedNumber(offset: 8))
        #expect(error(Self.file([[0x52, 0xC3, 0x28]])) == .invalidString(offset: 8))
        // A lone UTF-16 high surrogate.
        #expect(error(Self.file([[0x61, 0xD8, 0x00]])) == .invalidString(offset: 8))
        #expect(error(Self.file([[0xD1, 0x01, 0x01], [0x10, 0x01]])) == .nonStringKey(offset: 8))
    }

    @Test("errors say what is wrong and where")
    func messages() {
        #expect(BinaryPropertyListError.referenceCycle(object: 4).description == "binary property list object 4 contains itself (a reference cycle)")
        #expect(BinaryPropertyListError.outOfBounds(object: 0, offset: 200).description == "binary property list object 0 lies outside the file (offset 200)")
    }
}
