import Foundation
import Sworm
import Testing

/// Attribute encoding and decoding: a round trip of every type, the explicit conversions from what
/// the store holds, and the typed errors for stored values that do not fit.
@Suite struct AttributeTests {
    @Test func everyAttributeTypeRoundTrips() throws {
        let db = try TestStores.sworm(FixtureModels.attributes)
        let value = PrimitiveAttributeFullSet(
            x1: true, x2: 32_000, x3: .min, x4: .max, x5: .min, x6: 0.1, x7: 0.1,
            x8: Decimal(string: "1234.5678")!, x9: Date(timeIntervalSinceReferenceDate: 123_456.25),
            x10: "text", x11: Data([0, 1, 255]), x12: UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"),
            x13: URL(string: "https://example.com/a?b=c"), x14: .high, x15: .low)
        try db.perform { ctx in try ctx.insert(value) }
        let decoded = try db.perform { ctx in try ctx.fetchOne(PrimitiveAttributeFullSet.all)?.decode() }
        #expect(decoded == value)
        // The optional ones come back as nil.
        try db.perform { ctx in try ctx.delete(PrimitiveAttributeFullSet.all) }
        try db.perform { ctx in try ctx.insert(PrimitiveAttributeFullSet()) }
        let empty = try db.perform { ctx in try ctx.fetchOne(PrimitiveAttributeFullSet.all)?.decode() }
        #expect(empty == PrimitiveAttributeFullSet())
    }

    @Test func singleAttributesEncodeAndDecode() throws {
        let db = try TestStores.sworm(FixtureModels.attributes)
        try db.perform { ctx in
            let object = try ctx.insert(PrimitiveAttributeFullSet())
            object.encode(\.x2, 7).encode(\.x10, "seven").encode(\.x15, .high)
        }
        let (x2, x10, x15, x9) = try db.perform { ctx in
            let object = try #require(try ctx.fetchOne(PrimitiveAttributeFullSet.all))
            return (try object.decode(\.x2), try object.decode(\.x10), try object.decode(\.x15), try object.decode(\.x9))
        }
        #expect(x2 == 7)
        #expect(x10 == "seven")
        #expect(x15 == .high)
        #expect(x9 == nil)
    }

    @Test func conversionsFromStoredValues() throws {
        // Integers of any width, and whole floating-point or decimal values, read as integers.
        #expect(try Int(storedValue: .integer(-12)) == -12)
        #expect(try Int(storedValue: .double(3)) == 3)
        #expect(try Int(storedValue: .decimal(Decimal(string: "12")!)) == 12)
        #expect(try Int16(storedValue: .integer(-32_768)) == -32_768)
        #expect(try Int32(storedValue: .bool(true)) == 1)
        #expect(try Int64(storedValue: .integer(.max)) == .max)
        // Float storage holds a Float widened to Double: it reads back exactly.
        #expect(try Float(storedValue: .double(Double(Float(0.1)))) == Float(0.1))
        #expect(try Double(storedValue: .integer(2)) == 2)
        #expect(try Double(storedValue: .decimal(Decimal(string: "0.07")!)) == 0.07)
        #expect(try Decimal(storedValue: .double(0.1)) == Decimal(string: "0.1")!)
        #expect(try Decimal(storedValue: .integer(5)) == 5)
        #expect(try Bool(storedValue: .integer(0)) == false)
        #expect(try Bool(storedValue: .integer(1)) == true)
        #expect(try Date(storedValue: .date(secondsSinceReferenceDate: 60)) == Date(timeIntervalSinceReferenceDate: 60))
    }

    @Test func valuesThatDoNotFitAreBadInput() {
        #expect(throws: AttributeError.self) { try Int(storedValue: .double(2.5)) }
        #expect(throws: AttributeError.self) { try Int(storedValue: .decimal(Decimal(string: "12.5")!)) }
        #expect(throws: AttributeError.self) { try Int16(storedValue: .integer(40_000)) }
        #expect(throws: AttributeError.self) { try Int32(storedValue: .integer(3_000_000_000)) }
        #expect(throws: AttributeError.self) { try Int(storedValue: .string("1")) }
        #expect(throws: AttributeError.self) { try Float(storedValue: .double(1e300)) }
        #expect(throws: AttributeError.self) { try Bool(storedValue: .integer(2)) }
        #expect(throws: AttributeError.self) { try String(storedValue: .integer(1)) }
        #expect(throws: AttributeError.self) { try Date(storedValue: .double(1)) }
        #expect(throws: AttributeError.self) { try UUID(storedValue: .string("x")) }
        #expect(throws: AttributeError.self) { try Int(storedValue: .null) }
        do {
            _ = try Int16(storedValue: .integer(40_000))
        } catch {
            guard case .badInput(let value) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(value as? Int64 == 40_000)
        }
    }

    /// Unpacks a `badAttribute` error into (entity, attribute, bad input).
    private func unpack(_ error: any Error) -> (String, String, String)? {
        guard case .badAttribute(let context)? = error as? AttributeError,
            case .badInput(let value)? = context.originalError as? AttributeError
        else { return nil }
        return (context.entity, context.name, value.map { "\($0)" } ?? "nil")
    }

    @Test func badStoredValuesNameEntityAttributeAndValue() throws {
        let db = try TestStores.sworm(FixtureModels.attributes)
        let cases: [(NarrowWriter, String, String)] = [
            (NarrowWriter(small: 1, wide: 100_000, real: 0, text: "t"), "wide", "100000"),
            (NarrowWriter(small: 1, wide: 1, real: 1e300, text: "t"), "real", "1e+300"),
            (NarrowWriter(small: 1, wide: 1, real: 0, text: nil), "text", "nil"),
        ]
        for (written, attribute, value) in cases {
            try db.perform { ctx in
                try ctx.delete(NarrowWriter.all)
                try ctx.insert(written)
            }
            let error = #expect(throws: AttributeError.self) {
                try db.perform { ctx in try ctx.fetchOne(NarrowReader.all)?.decode() }
            }
            let unpacked = try #require(error.flatMap(unpack))
            #expect(unpacked.0 == "Narrow")
            #expect(unpacked.1 == attribute)
            #expect(unpacked.2 == value)
            #expect("\(try #require(error))".contains("'\(attribute)' of entity 'Narrow'"))
        }
        // Decoding one attribute wraps the same way.
        let single = #expect(throws: AttributeError.self) {
            try db.perform { ctx in try ctx.fetchOne(NarrowReader.all)?.decode(\.text) }
        }
        #expect(single.flatMap(unpack)?.1 == "text")
    }

    @Test func unknownEnumerationCaseIsBadInput() throws {
        struct RawABCD: ManagedObjectConvertible {
            var a: Int = 0
            var d: String?
            static let entityName = "ABCD"
            static let attributes: Set<Attribute<RawABCD>> = [.init(\.a, "a"), .init(\.d, "d")]
            static let relations: Void = ()
        }
        let db = try TestStores.sworm(FixtureModels.predicates)
        try db.perform { ctx in try ctx.insert(RawABCD(a: 2, d: "baz")) }
        let error = #expect(throws: AttributeError.self) {
            try db.perform { ctx in try ctx.fetchOne(PredicateABCD.all)?.decode() }
        }
        let unpacked = try #require(error.flatMap(unpack))
        #expect(unpacked == ("ABCD", "d", "baz"))
        // The stored value is still readable as the raw string.
        #expect(try db.perform { ctx in try ctx.fetch(RawABCD.all, \.d) } == ["baz"])
    }

    @Test func valuesTheStoreRefusesFailThePerform() throws {
        nonisolated(unsafe) var logged: [String] = []
        let db = try TestStores.sworm(FixtureModels.attributes, logError: { logged.append("\($0)") })
        // 40000 does not fit the Integer 16 column: insert throws, and nothing is saved.
        #expect(throws: (any Error).self) { try db.perform { ctx in try ctx.insert(NarrowWriter(small: 40_000)) } }
        // The non-throwing encode records the refusal; perform throws it instead of saving.
        #expect(throws: (any Error).self) {
            try db.perform { ctx in
                let object = try ctx.insert(NarrowWriter(small: 1))
                object.encode(\.small, 40_000)
            }
        }
        #expect(try db.perform { ctx in try ctx.count(of: NarrowWriter.all) } == 0)
        #expect(logged.count == 2)
        #expect(logged.allSatisfy { $0.contains("small") && $0.contains("40000") })
    }
}

/// A class and a struct with a computed property: their attributes have no stored offset, so decoding
/// goes through the key path (the path structs' stored properties skip).
final class ABCDReference: ManagedObjectConvertible, Equatable {
    var a: Int = 0
    var c: String?
    static let entityName = "ABCD"
    static let attributes: Set<Attribute<ABCDReference>> = [.init(\.a, "a"), .init(\.c, "c")]
    static let relations: Void = ()

    static func == (left: ABCDReference, right: ABCDReference) -> Bool { left.a == right.a && left.c == right.c }
}

struct ABCDComputed: ManagedObjectConvertible, Equatable {
    var storage: [String: Int] = [:]
    var a: Int {
        get { storage["a", default: 0] }
        set { storage["a"] = newValue }
    }
    var b: Int = 0
    static let entityName = "ABCD"
    static let attributes: Set<Attribute<ABCDComputed>> = [.init(\.a, "a"), .init(\.b, "b")]
    static let relations: Void = ()
}

@Suite struct KeyPathDecodingTests {
    @Test func classesAndComputedPropertiesDecodeThroughTheirKeyPaths() throws {
        let db = try TestStores.sworm(FixtureModels.predicates)
        let reference = ABCDReference()
        reference.a = 12
        reference.c = "twelve"
        try db.perform { ctx in
            try ctx.insert(reference)
            var computed = ABCDComputed()
            computed.a = 34
            computed.b = 56
            try ctx.insert(computed)
        }
        let references = try db.perform { ctx in try ctx.fetch(ABCDReference.all.sort(\.a)).map { try $0.decode() } }
        #expect(references.map(\.a) == [12, 34])
        #expect(references.map(\.c) == ["twelve", nil])
        let computed = try db.perform { ctx in try ctx.fetch(ABCDComputed.all.sort(\.b)).map { try $0.decode() } }
        #expect(computed.map(\.a) == [12, 34])
        #expect(computed.map(\.b) == [0, 56])
        #expect(computed.map(\.storage) == [["a": 12], ["a": 34]])
    }
}
