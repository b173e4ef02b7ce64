import Foundation
import Sworm

struct PredicateABCD: Equatable {
    enum SomeEnum: String {
        case foo
        case bar
    }

    var a: Int = 0
    var b: Int = 0
    var c: String?
    var d: SomeEnum?
}

extension PredicateABCD.SomeEnum: SupportedAttributeType {}

extension PredicateABCD: ManagedObjectConvertible {
    static let entityName = "ABCD"
    static let attributes: Set<Attribute<PredicateABCD>> = [
        .init(\.a, "a"),
        .init(\.b, "b"),
        .init(\.c, "c"),
        .init(\.d, "d"),
    ]
    static let relations: Void = ()
}

struct PredicateIDURL: Equatable {
    var id: UUID?
    var url: URL?
}

extension PredicateIDURL: ManagedObjectConvertible {
    static let entityName = "IDURL"
    static let attributes: Set<Attribute<PredicateIDURL>> = [.init(\.id, "id"), .init(\.url, "url")]
    static let relations: Void = ()
}

/// A type whose entity the model lacks.
struct Nope: ManagedObjectConvertible {
    var x: Int = 0
    static let entityName = "Nope"
    static let attributes: Set<Attribute<Nope>> = [.init(\.x, "x")]
    static let relations: Void = ()
}
