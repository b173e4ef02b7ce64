import Foundation
import Testing

@testable import CDQIModel

/// The binary property list writer and the keyed-archive encoder, checked byte by byte against the
/// format, against our reader, and against an independent reader (Python's `plistlib`).
@Suite("Binary property list writer")
struct BinaryPropertyListWriterTests {
    @Test("a dictionary with one integer is written byte for byte as the bplist00 format lays it out")
    func oneEntryDictionary() {
        let bytes = BinaryPropertyListWriter.write(.dictionary(["a": .integer(1)]))
        // Worked out by hand from the format: header; object 0 the dictionary (0xD1: one pair, key ref 1,
        // value ref 2) at offset 8; object 1 the ASCII string "a" (0x51 0x61) at 11; object 2 the one-byte
        // integer 1 (0x10 0x01) at 13; the offset table (one byte each) at 15; the trailer: six unused
        // bytes, offset size 1, reference size 1, 3 objects, top object 0, table at 15.
        let expected: [UInt8] =
            Array("bplist00".utf8)
            + [0xD1, 0x01, 0x02, 0x51, 0x61, 0x10, 0x01]
            + [0x08, 0x0B, 0x0D]
            + [0, 0, 0, 0, 0, 0, 1, 1]
            + [0, 0, 0, 0, 0, 0, 0, 3]
            + [0, 0, 0, 0, 0, 0, 0, 0]
            + [0, 0, 0, 0, 0, 0, 0, 15]
        #expect(bytes == expected)
    }

    @Test("counts of 15 or more, wide integers, UTF-16 strings and UIDs follow the format")
    func wideEncodings() {
        // An array of 15 `true`s: 0xAF, then the count as the integer object 0x10 0x0F, then 15 references
        // to the one shared `true` (object 1, 0x09).
        let array = BinaryPropertyListWriter.write(.array(Array(repeating: .bool(true), count: 15)))
        #expect(Array(array[8..<11]) == [0xAF, 0x10, 0x0F])
        #expect(Array(array[11..<26]) == Array(repeating: 0x01, count: 15))
        #expect(array[26] == 0x09)
        // -1 takes 8 bytes (0x13, all ones); 256 takes 2 (0x11 01 00); "é" is UTF-16 (0x61 00 E9); UID 300 is
        // two bytes (0x81 01 2C).
        #expect(Array(BinaryPropertyListWriter.write(.integer(-1))[8..<17]) == [0x13] + Array(repeating: 0xFF, count: 8))
        #expect(Array(BinaryPropertyListWriter.write(.integer(256))[8..<11]) == [0x11, 0x01, 0x00])
        #expect(Array(BinaryPropertyListWriter.write(.string("é"))[8..<11]) == [0x61, 0x00, 0xE9])
        #expect(Array(BinaryPropertyListWriter.write(.uid(300))[8..<11]) == [0x81, 0x01, 0x2C])
    }

    /// A value with every kind the writer handles.
    static let everything = PropertyListValue.dictionary([
        "integers": .array([.integer(0), .integer(255), .integer(256), .integer(65_536), .integer(1 << 40), .integer(-42)]),
        "reals": .array([.real(1.5), .real(-0.0), .real(1e300)]),
        "date": .date(-978_307_200),
        "ascii": .string("bplist"),
        "unicode": .string("Zoë 🐘 ünïcode, a string longer than fifteen characters"),
        "data": .data(Array(0..<40)),
        "uids": .array([.uid(0), .uid(1), .uid(70_000)]),
        "flags": .array([.bool(true), .bool(false)]),
        "set": .set([.string("x"), .string("y")]),
        "nested": .dictionary(["empty": .array([]), "inner": .dictionary(["k": .string("v")])]),
        "long": .array((0..<300).map { .integer(Int64($0)) }),
    ])

    @Test("our reader reads back exactly what the writer wrote")
    func roundTripThroughReader() throws {
        let bytes = BinaryPropertyListWriter.write(Self.everything)
        #expect(try BinaryPropertyListReader.parse(bytes) == Self.everything)
    }

    static let python: String? = ["/usr/bin/python3", "/usr/local/bin/python3", "/bin/python3"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    @Test(
        "Python's plistlib reads the writer's output as the same structure",
        .enabled(if: python != nil, "python3 is not installed"))
    func readByPlistlib() throws {
        var value = Self.everything
        // plistlib reads no sets (marker 0xC); everything else it reads.
        if case .dictionary(var fields) = value {
            fields["set"] = nil
            value = .dictionary(fields)
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cdqi-bplist-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("value.bplist")
        try Data(BinaryPropertyListWriter.write(value)).write(to: file)
        // Python prints the structure in a canonical form of its own: sorted keys, tagged scalars.
        let script = """
            import plistlib, sys, datetime, math
            def show(v):
                if isinstance(v, dict): return "{" + ",".join(k + ":" + show(v[k]) for k in sorted(v)) + "}"
                if isinstance(v, list): return "[" + ",".join(show(x) for x in v) + "]"
                if isinstance(v, bool): return "b" + str(v)
                if isinstance(v, int): return "i" + str(v)
                if isinstance(v, float): return "r" + repr(v)
                if isinstance(v, plistlib.UID): return "u" + str(v.data)
                if isinstance(v, bytes): return "d" + v.hex()
                if isinstance(v, datetime.datetime): return "t" + v.strftime("%Y-%m-%d %H:%M:%S")
                if isinstance(v, str): return "s" + v
                raise Exception(type(v))
            with open(sys.argv[1], "rb") as f:
                sys.stdout.buffer.write(show(plistlib.load(f)).encode("utf-8"))
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(Self.python))
        process.arguments = ["-c", script, file.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let long = (0..<300).map { "i\($0)" }.joined(separator: ",")
        // The date is 1970-01-01 00:00:00 UTC: -978307200 seconds from 2001-01-01.
        let expected =
            "{ascii:sbplist,data:d" + (0..<40).map { String(format: "%02x", $0) }.joined() + ",date:t1970-01-01 00:00:00,"
            + "flags:[bTrue,bFalse],integers:[i0,i255,i256,i65536,i1099511627776,i-42],long:[\(long)],"
            + "nested:{empty:[],inner:{k:sv}},reals:[r1.5,r-0.0,r1e+300],uids:[u0,u1,u70000],"
            + "unicode:sZoë 🐘 ünïcode, a string longer than fifteen characters}"
        #expect(String(decoding: output, as: UTF8.self) == expected)
    }

    @Test("a keyed archive with a cycle reads back through KeyedArchive: classes, strings, references")
    func keyedArchiveRoundTrip() throws {
        var encoder = KeyedArchiveEncoder()
        let parent = encoder.reserve()
        let child = encoder.encode(
            classes: ["Child", "NSObject"], fields: ["name": encoder.string("child"), "parent": parent, "count": .integer(3)])
        try encoder.fill(
            parent, classes: ["Parent", "NSObject"],
            fields: ["children": encoder.array([child], mutable: true), "name": encoder.string("parent")])
        let bytes = BinaryPropertyListWriter.write(try encoder.archive(root: parent))
        let archive = try KeyedArchive(try BinaryPropertyListReader.parse(bytes))
        #expect(archive.objects.first == .string("$null"))
        let root = try #require(try archive.object(archive.top["root"]))
        #expect(root.className == "Parent")
        #expect(try archive.string(root["name"]) == "parent")
        let children = try archive.elements(root["children"])
        #expect(children.count == 1)
        let decodedChild = try #require(try archive.object(children.first))
        #expect(decodedChild.className == "Child")
        #expect(decodedChild["count"] == .integer(3))
        #expect(try archive.object(decodedChild["parent"])?.reference == root.reference)
        // The class descriptions: `$classes` chains as written, `$classname` their first element.
        guard case .dictionary(let fields) = try archive.resolve(decodedChild["$class"]) else {
            Issue.record("no class description")
            return
        }
        #expect(fields["$classes"] == .array([.string("Child"), .string("NSObject")]))
        guard case .dictionary(let top) = try BinaryPropertyListReader.parse(bytes) else { return }
        #expect(top["$archiver"] == .string("NSKeyedArchiver"))
        #expect(top["$version"] == .integer(100_000))
    }

    @Test("an archive with a reserved object left unwritten is refused, naming it")
    func unfilledObject() {
        var encoder = KeyedArchiveEncoder()
        let reference = encoder.reserve()
        #expect(throws: KeyedArchiveEncoder.Failure.unfilledObject(1)) { try encoder.archive(root: reference) }
        #expect(throws: KeyedArchiveEncoder.Failure.misplacedObject(7)) {
            try encoder.fill(.uid(7), classes: ["NSObject"], fields: [:])
        }
    }
}
