import CDQIModel
import CDQIPredicate
import CDQIStore
import Foundation
import Testing

@testable import Sworm

/// A struct with a stored property of every primitive type, and optionals, for the direct decoders.
private struct Slots: ManagedObjectConvertible {
    enum Level: Int { case low = 1, high = 2 }

    var bool = false
    var int = 0
    var int16: Int16 = 0
    var int32: Int32 = 0
    var int64: Int64 = 0
    var float: Float = 0
    var double: Double = 0
    var decimal: Decimal = 0
    var date = Date(timeIntervalSinceReferenceDate: 0)
    var string = ""
    var data = Data()
    var uuid = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
    var url = URL(fileURLWithPath: "/")
    var optionalInt16: Int16? = 5
    var optionalString: String? = "before"
    var optionalDate: Date?
    var level: Level = .low

    static let entityName = "Slots"
    // The direct decoders are tested one attribute at a time (see `slot`); this list is not used.
    static let attributes: Set<Attribute<Slots>> = []
    static let relations: Void = ()
}

extension Slots.Level: SupportedAttributeType {}

/// `start` with `stored` written into the property at `keyPath` by its direct decoder; `nil` when the
/// direct decoder declines (leaving it to the attribute's decoder).
private func direct<A: SupportedAttributeType>(
    _ keyPath: WritableKeyPath<Slots, A>, _ stored: StoredValue, into start: Slots = Slots()
) -> Slots? {
    var value = start
    return Attribute(keyPath, "x").slot.decode(stored, into: &value) ? value : nil
}

private func direct<A: SupportedAttributeType>(
    _ keyPath: WritableKeyPath<Slots, A?>, _ stored: StoredValue, into start: Slots = Slots()
) -> Slots? {
    var value = start
    return Attribute(keyPath, "x").slot.decode(stored, into: &value) ? value : nil
}

/// Decoding a struct straight from the object's attribute slots (``SlotDecoder``): the values the
/// store holds for each type are written directly; everything else is left to the attribute's decoder,
/// so a whole decode gives the values and errors of the explicit conversions.
@Suite struct SlotDecodingTests {
    @Test func directDecodersWriteTheValuesTheStoreHolds() throws {
        // An Integer 16, 32 or 64 column holds an integer.
        #expect(direct(\.int, .integer(-12))?.int == -12)
        #expect(direct(\.int16, .integer(-32_768))?.int16 == -32_768)
        #expect(direct(\.int32, .integer(2_000_000_000))?.int32 == 2_000_000_000)
        #expect(direct(\.int64, .integer(.max))?.int64 == 9_223_372_036_854_775_807)
        // Float storage holds the Double equal to a Float: Float(0.1) is 0x3DCCCCCD.
        let tenth = Double(Float(bitPattern: 0x3DCC_CCCD))
        #expect(direct(\.float, .double(tenth))?.float.bitPattern == 0x3DCC_CCCD)
        #expect(direct(\.double, .double(0.25))?.double == 0.25)
        // A decimal exactly: 1234.5678 is 12345678 × 10⁻⁴.
        let decimal = Decimal(sign: .plus, exponent: -4, significand: 12_345_678)
        #expect(direct(\.decimal, .decimal(decimal))?.decimal.description == "1234.5678")
        #expect(direct(\.bool, .bool(true))?.bool == true)
        #expect(direct(\.date, .date(secondsSinceReferenceDate: 60.5))?.date.timeIntervalSinceReferenceDate == 60.5)
        #expect(direct(\.string, .string("héllo"))?.string == "héllo")
        #expect(direct(\.data, .data(Data([0, 1, 255])))?.data == Data([0, 1, 255]))
        let uuid = try #require(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
        #expect(direct(\.uuid, .uuid(uuid))?.uuid.uuidString == "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")
        let url = try #require(URL(string: "https://example.com/a?b=c"))
        #expect(direct(\.url, .uri(url))?.url.absoluteString == "https://example.com/a?b=c")
        // Only the property is written.
        let written = try #require(direct(\.int16, .integer(7)))
        #expect(written.int == 0 && written.string.isEmpty && written.optionalString == "before")
    }

    @Test func directDecodersOfOptionalsWriteValuesAndNil() throws {
        let none = try #require(direct(\.optionalInt16, .null))
        #expect(none.optionalInt16 == nil)
        #expect(direct(\.optionalInt16, .integer(-3))?.optionalInt16 == -3)
        #expect(direct(\.optionalString, .string("after"))?.optionalString == "after")
        let cleared = try #require(direct(\.optionalString, .null, into: Slots()))
        #expect(cleared.optionalString == nil)
        #expect(
            direct(\.optionalDate, .date(secondsSinceReferenceDate: -1))?.optionalDate
                == Date(timeIntervalSinceReferenceDate: -1))
    }

    @Test func directDecodersLeaveConversionsAndMisfitsToTheDecoder() {
        // Conversions (the decoder's explicit rules), values that do not fit, a missing required value.
        #expect(direct(\.int, .double(3)) == nil)
        #expect(direct(\.int, .null) == nil)
        #expect(direct(\.int16, .integer(40_000)) == nil)
        #expect(direct(\.int32, .integer(3_000_000_000)) == nil)
        #expect(direct(\.float, .double(1e300)) == nil)
        #expect(direct(\.double, .integer(2)) == nil)
        #expect(direct(\.decimal, .double(0.1)) == nil)
        #expect(direct(\.bool, .integer(1)) == nil)
        #expect(direct(\.string, .integer(1)) == nil)
        #expect(direct(\.optionalInt16, .integer(70_000)) == nil)
        // An enumeration always goes through its decoder.
        #expect(direct(\.level, .integer(2)) == nil)
        // Classes and computed properties have no offset: no direct decoder.
        #expect(Attribute(\ABCDReference.a, "a").slot.kind == .general)
        #expect(Attribute(\ABCDComputed.a, "a").slot.kind == .general)
        #expect(Attribute(\ABCDComputed.b, "b").slot.kind == .int)
    }

    @Test func wholeDecodesMixDirectAndConvertedAttributes() throws {
        let db = try TestStores.sworm(FixtureModels.attributes)
        // Narrow {real Double, small Integer 16, text String, wide Integer 64}.
        try db.perform { ctx in try ctx.insert(NarrowWriter(small: 300, wide: 7, real: 0.5, text: "t")) }
        // Int16 from Integer 16 and Integer 64, Float from a Double value, String: all direct.
        let narrow = try db.perform { ctx in try ctx.fetchOne(NarrowReader.all)?.decode() }
        #expect(narrow == NarrowReader(small: 300, wide: 7, real: 0.5, text: "t"))
        // Int from Integer 16, Double, optional String (direct) beside Decimal and Double from an
        // Integer 64 (conversions), in one decode.
        let converted = try db.perform { ctx in try ctx.fetchOne(NarrowConverted.all)?.decode() }
        #expect(converted == NarrowConverted(small: 300, wide: Decimal(7), wideAsDouble: 7, real: 0.5, text: "t"))

        // FullSet: an Int from Integer 16, an Int-backed enumeration from Integer 32 (required and
        // optional), a Float, a Decimal exactly, optionals with and without values.
        let full = PrimitiveAttributeFullSet(
            x1: true, x2: -300, x3: 12, x4: -7, x5: 1 << 40, x6: 3.25, x7: -0.5,
            x8: Decimal(string: "0.1")!, x9: nil, x10: "ten", x11: nil, x12: nil, x13: nil, x14: .high, x15: nil)
        try db.perform { ctx in try ctx.insert(full) }
        let decoded = try db.perform { ctx in try ctx.fetchOne(PrimitiveAttributeFullSet.all)?.decode() }
        #expect(decoded?.x2 == -300)
        #expect(decoded?.x6 == 3.25)
        #expect(decoded?.x8.description == "0.1")
        #expect(decoded?.x14 == .high)
        #expect(decoded?.x15 == nil)
        #expect(decoded == full)
    }

    @Test func declinedValuesGiveTheDecodersErrors() throws {
        let db = try TestStores.sworm(FixtureModels.attributes)
        // 40000 fits the Integer 64 column `wide` but not the Int16 it is read into.
        try db.perform { ctx in try ctx.insert(NarrowWriter(small: 1, wide: 40_000, real: 0, text: "t")) }
        let error = #expect(throws: AttributeError.self) {
            try db.perform { ctx in try ctx.fetchOne(NarrowReader.all)?.decode() }
        }
        guard case .badAttribute(let context)? = error,
            case .badInput(let value)? = context.originalError as? AttributeError
        else {
            Issue.record("not a badAttribute(badInput): \(String(describing: error))")
            return
        }
        #expect(context.entity == "Narrow")
        #expect(context.name == "wide")
        #expect(value as? Int64 == 40_000)
    }

    @Test func aFetchOfAnEntityAndItsSubentityDecodesEachObjectOfEither() throws {
        // Animal {legs Integer 16, name String}; Dog, a subentity of Animal, adds {breed String}.
        var dog = EntityDescription(name: "Dog", parentEntityName: "Animal")
        dog.attributes = [ModelBuilder.attribute("breed", .string)]
        let model = ManagedObjectModel(entities: [
            ModelBuilder.entity(
                "Animal",
                [
                    ModelBuilder.attribute("legs", .integer16, required: true, defaultValue: "0"),
                    ModelBuilder.attribute("name", .string),
                ]),
            dog,
        ])
        let db = try TestStores.sworm(model)
        try db.perform { ctx in
            try ctx.insert(AnimalValue(legs: 4, name: "cat"))
            try ctx.insert(DogValue(breed: "collie", legs: 3, name: "rex"))
        }
        // The fetch works out its plan from its first object, here the Dog; the cat is an Animal.
        let descending = try db.perform { ctx in
            try ctx.fetch(AnimalValue.all.sort(\.name, ascending: false)).map { try $0.decode() }
        }
        #expect(descending == [AnimalValue(legs: 3, name: "rex"), AnimalValue(legs: 4, name: "cat")])
        let ascending = try db.perform { ctx in try ctx.fetch(AnimalValue.all.sort(\.name)).map { try $0.decode() } }
        #expect(ascending == [AnimalValue(legs: 4, name: "cat"), AnimalValue(legs: 3, name: "rex")])
        let dogs = try db.perform { ctx in try ctx.fetch(DogValue.all).map { try $0.decode() } }
        #expect(dogs == [DogValue(breed: "collie", legs: 3, name: "rex")])
    }

    @Test func anAttributeTheEntityLacksIsTheStoresUnknownKey() throws {
        let db = try TestStores.sworm(FixtureModels.attributes)
        try db.perform { ctx in try ctx.insert(NarrowWriter(small: 1, wide: 2, real: 0, text: "t")) }
        #expect(throws: ManagedObjectError.unknownKey(entity: "Narrow", key: "missing")) {
            try db.perform { ctx in try ctx.fetchOne(NarrowMissing.all)?.decode() }
        }
    }
}

/// Reads `Narrow` with conversions beside direct reads: `wide` (Integer 64) both as a Decimal and
/// as a Double.
private struct NarrowConverted: ManagedObjectConvertible, Equatable {
    var small: Int = 0
    var wide: Decimal = 0
    var wideAsDouble: Double = 0
    var real: Double = 0
    var text: String?

    static let entityName = "Narrow"
    static let attributes: Set<Attribute<NarrowConverted>> = [
        .init(\.small, "small"), .init(\.wide, "wide"), .init(\.wideAsDouble, "wide"), .init(\.real, "real"),
        .init(\.text, "text"),
    ]
    static let relations: Void = ()
}

private struct AnimalValue: ManagedObjectConvertible, Equatable {
    var legs: Int = 0
    var name: String?

    static let entityName = "Animal"
    static let attributes: Set<Attribute<AnimalValue>> = [.init(\.legs, "legs"), .init(\.name, "name")]
    static let relations: Void = ()
}

private struct DogValue: ManagedObjectConvertible, Equatable {
    var breed: String?
    var legs: Int16 = 0
    var name: String?

    static let entityName = "Dog"
    static let attributes: Set<Attribute<DogValue>> = [
        .init(\.breed, "breed"), .init(\.legs, "legs"), .init(\.name, "name"),
    ]
    static let relations: Void = ()
}

/// Maps an attribute `Narrow` does not have.
private struct NarrowMissing: ManagedObjectConvertible {
    var small: Int16 = 0
    var missing: Int16 = 0

    static let entityName = "Narrow"
    static let attributes: Set<Attribute<NarrowMissing>> = [.init(\.small, "small"), .init(\.missing, "missing")]
    static let relations: Void = ()
}
