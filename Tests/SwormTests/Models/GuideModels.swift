import Foundation
import Sworm

// The types of Sworm's guides (docs/queries.md writes `T` for "any type"; here it is one type).

struct T: Equatable {
    var count: Int = 0
    var date: Date?
    var id: Int = 0
    var name: String = ""
    var marker: String = ""
    var amount: Double = 0
}

extension T: ManagedObjectConvertible {
    static let entityName = "T"
    static let attributes: Set<Attribute<T>> = [
        .init(\.count, "count"),
        .init(\.date, "date"),
        .init(\.id, "id"),
        .init(\.name, "name"),
        .init(\.marker, "marker"),
        .init(\.amount, "amount"),
    ]
    struct Relations {
        let foo = ToOneRelation<Foo>("foo")
    }
    static let relations = Relations()
}

struct Foo: Equatable {
    var name: String?
}

extension Foo: ManagedObjectConvertible {
    static let entityName = "Foo"
    static let attributes: Set<Attribute<Foo>> = [.init(\.name, "name")]
    struct Relations {
        let bars = ToManyRelation<Bar>("bars")
    }
    static let relations = Relations()
}

struct Bar: Equatable {
    var name: String?
}

extension Bar: ManagedObjectConvertible {
    static let entityName = "Bar"
    static let attributes: Set<Attribute<Bar>> = [.init(\.name, "name")]
    static let relations: Void = ()
}

// docs/basic_usage.md, with `age` from docs/read_write.md.

struct Author: Equatable {
    var id: UUID?
    var name: String = ""
    var age: Int = 0
}

struct Book: Equatable {
    var id: UUID?
    var name: String = ""
    var date: Date?
}

extension Author: ManagedObjectConvertible {
    static let entityName = "Author"

    static let attributes: Set<Attribute<Author>> = [
        .init(\.id, "id"),
        .init(\.name, "name"),
        .init(\.age, "age"),
    ]

    struct Relations {
        let books = ToManyRelation<Book>("books")
    }

    static let relations = Relations()
}

extension Book: ManagedObjectConvertible {
    static let entityName = "Book"

    static let attributes: Set<Attribute<Book>> = [
        .init(\.id, "id"),
        .init(\.name, "name"),
        .init(\.date, "date"),
    ]

    struct Relations {
        let authors = ToManyRelation<Author>("authors")
    }

    static let relations = Relations()
}
