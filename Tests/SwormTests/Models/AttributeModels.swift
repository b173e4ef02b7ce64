import Foundation
import Sworm

/// Every primitive type, and an `Int`-backed enumeration stored as Integer 32.
struct PrimitiveAttributeFullSet: Equatable {
    enum Level: Int {
        case low = 1
        case high = 2
    }

    var x1: Bool = false
    var x2: Int = .zero
    var x3: Int16 = .zero
    var x4: Int32 = .zero
    var x5: Int64 = .zero
    var x6: Float = .zero
    var x7: Double = .zero
    var x8: Decimal = .zero
    var x9: Date?
    var x10: String?
    var x11: Data?
    var x12: UUID?
    var x13: URL?
    var x14: Level = .low
    var x15: Level?
}

extension PrimitiveAttributeFullSet.Level: SupportedAttributeType {}

extension PrimitiveAttributeFullSet: ManagedObjectConvertible {
    static let entityName = "FullSet"
    static let attributes: Set<Attribute<PrimitiveAttributeFullSet>> = [
        .init(\.x1, "x1"), .init(\.x2, "x2"), .init(\.x3, "x3"), .init(\.x4, "x4"), .init(\.x5, "x5"),
        .init(\.x6, "x6"), .init(\.x7, "x7"), .init(\.x8, "x8"), .init(\.x9, "x9"), .init(\.x10, "x10"),
        .init(\.x11, "x11"), .init(\.x12, "x12"), .init(\.x13, "x13"), .init(\.x14, "x14"), .init(\.x15, "x15"),
    ]
    static let relations: Void = ()
}

/// Reads the `Narrow` entity with types that cannot hold everything it may store.
struct NarrowReader: Equatable {
    var small: Int16 = 0
    var wide: Int16 = 0
    var real: Float = 0
    var text: String = ""
}

extension NarrowReader: ManagedObjectConvertible {
    static let entityName = "Narrow"
    static let attributes: Set<Attribute<NarrowReader>> = [
        .init(\.small, "small"), .init(\.wide, "wide"), .init(\.real, "real"), .init(\.text, "text"),
    ]
    static let relations: Void = ()
}

/// Writes any value into `Narrow`.
struct NarrowWriter: Equatable {
    var small: Int = 0
    var wide: Int64 = 0
    var real: Double = 0
    var text: String?
}

extension NarrowWriter: ManagedObjectConvertible {
    static let entityName = "Narrow"
    static let attributes: Set<Attribute<NarrowWriter>> = [
        .init(\.small, "small"), .init(\.wide, "wide"), .init(\.real, "real"), .init(\.text, "text"),
    ]
    static let relations: Void = ()
}
