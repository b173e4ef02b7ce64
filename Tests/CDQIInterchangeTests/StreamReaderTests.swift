import CDQITestSupport
import Foundation
import Testing

@testable import CDQIInterchange

/// The streaming JSON reader reads the same values and refuses the same texts, with the same line and
/// column, whatever the size of the chunks it reads (values and strings cut anywhere between chunks).
@Suite struct StreamReaderTests {
    static let chunkSizes = [1, 2, 3, 5, 64, 1 << 16]

    private func parse(_ text: String, chunkSize: Int) throws(JSONParseError) -> JSONValue {
        var reader = JSONStreamReader(source: BytesDocumentSource(Array(text.utf8)), chunkSize: chunkSize)
        reader.start()
        let value = try reader.parseValue()
        try reader.finish()
        return value
    }

    @Test(arguments: chunkSizes)
    func readsValuesCutBetweenChunks(chunkSize: Int) throws {
        let text =
            "\u{FEFF}{\"b\": 1, \"é😀\": [12345678901234567890, -0.10, 1e-7, true, false, null, \"x\\u00e9\\ud83d\\ude00\\n\\\"q\\\"\"],\n \"c\": {\"d\": []}}"
        let expected = JSONValue.object([
            ("b", .number("1")),
            ("é😀", .array([.number("12345678901234567890"), .number("-0.10"), .number("1e-7"), .bool(true), .bool(false), .null, .string("xé😀\n\"q\"")])),
            ("c", .object([("d", .array([]))])),
        ])
        #expect(try parse(text, chunkSize: chunkSize) == expected)
    }

    /// The texts and messages of `FormatTests.jsonParserRefuses`, and a few more where the error is
    /// after a line break or a multi-byte character (columns count characters).
    static let refused: [(String, String)] =
        FormatTests.refusedJSON + [
            ("{\"é😀\": 1,\n  \"ü\": tru}", "line 2, column 8: unexpected word; expected a value (true, false and null are lowercase)"),
            ("[\"abc", "line 1, column 6: unterminated string"),
            ("[1.]", "line 1, column 4: expected a digit after the decimal point"),
            ("{\"a\" 1}", "line 1, column 6: expected ':' after the key"),
        ]

    @Test(arguments: chunkSizes)
    func refusesWithTheSamePlaceAndMessage(chunkSize: Int) {
        for (text, message) in Self.refused {
            do {
                _ = try parse(text, chunkSize: chunkSize)
                Issue.record("\(text) was accepted")
            } catch {
                #expect(error.description == message, "\(text)")
            }
        }
    }

    /// Damaged copies of a document (a byte replaced, dropped or doubled) read the same, value or error,
    /// whatever the chunk size: where chunks end never changes what is read.
    @Test func chunkSizeNeverChangesTheOutcome() {
        let document = Array(
            "{\"Employee\": [{\"_id\": \"e1\", \"name\": \"Åsa \\u00e9\\ud83d\\ude00\", \"n\": -12.5e3, \"ok\": true},\n {\"_id\": \"e2\", \"tags\": [null, false, 0]}]}"
                .utf8)
        let replacements = Array("{}[],:\"\\ 0-.eEtfnu\n".utf8) + [0xC3, 0xFF, 0x00]
        var rng = SeededGenerator(seed: 14)
        for _ in 0..<400 {
            var damaged = document
            let place = rng.below(damaged.count)
            switch rng.below(3) {
            case 0: damaged[place] = replacements[rng.below(replacements.count)]
            case 1: damaged.remove(at: place)
            default: damaged.insert(damaged[place], at: place)
            }
            var outcomes: [String] = []
            for chunkSize in [1, 2, 7, 1 << 16] {
                var reader = JSONStreamReader(source: BytesDocumentSource(damaged), chunkSize: chunkSize)
                reader.start()
                do {
                    let value = try reader.parseValue()
                    try reader.finish()
                    outcomes.append(JSONWriter.compact(value))
                } catch {
                    outcomes.append(error.description)
                }
            }
            #expect(Set(outcomes).count == 1, "\(String(decoding: damaged, as: UTF8.self)): \(outcomes)")
        }
    }

    @Test func invalidUTF8IsRefusedAtTheStartOfItsRun() {
        var bytes = Array("[\"ab".utf8)
        bytes += [0xC3, 0x28]
        bytes += Array("\"]".utf8)
        for chunkSize in Self.chunkSizes {
            var reader = JSONStreamReader(source: BytesDocumentSource(bytes), chunkSize: chunkSize)
            reader.start()
            #expect(throws: JSONParseError(message: "the string is not valid UTF-8", line: 1, column: 3)) { try reader.parseValue() }
        }
    }

    @Test func skippingAValueChecksItAsReadingItDoes() throws {
        for chunkSize in Self.chunkSizes {
            var reader = JSONStreamReader(source: BytesDocumentSource(Array("[{\"a\": [1, {\"b\": null}]}, \"s\", 2]".utf8)), chunkSize: chunkSize)
            reader.start()
            #expect(try reader.skipValue() == "an array")
            try reader.finish()
            var bad = JSONStreamReader(source: BytesDocumentSource(Array("[{\"a\": 1, \"a\": 2}]".utf8)), chunkSize: chunkSize)
            bad.start()
            #expect(throws: JSONParseError(message: "the key \"a\" appears twice in this object", line: 1, column: 11)) { try bad.skipValue() }
        }
    }
}
