import Foundation
import Sworm

/// A library with every kind of relation: a to-one cover, ordered reviews, unordered authors.
enum BookLibrary {
    struct Book: Equatable {
        var id: UUID = .init()
        var name: String = ""
        var year: Int = 0
    }

    struct Cover: Equatable {
        var url: URL?
    }

    struct Review: Equatable {
        var text: String = ""
    }

    struct Author: Equatable {
        var name: String = ""
    }
}

extension BookLibrary.Book: ManagedObjectConvertible {
    static let entityName = "Book"
    static let attributes: Set<Attribute<BookLibrary.Book>> = [.init(\.id, "id"), .init(\.name, "name"), .init(\.year, "year")]
    struct Relations {
        let cover = ToOneRelation<BookLibrary.Cover>("cover")
        let reviews = ToManyOrderedRelation<BookLibrary.Review>("reviews")
        let authors = ToManyRelation<BookLibrary.Author>("authors")
    }
    static let relations = Relations()
}

extension BookLibrary.Cover: ManagedObjectConvertible {
    static let entityName = "Cover"
    static let attributes: Set<Attribute<BookLibrary.Cover>> = [.init(\.url, "url")]
    static let relations: Void = ()
}

extension BookLibrary.Review: ManagedObjectConvertible {
    static let entityName = "Review"
    static let attributes: Set<Attribute<BookLibrary.Review>> = [.init(\.text, "text")]
    static let relations: Void = ()
}

extension BookLibrary.Author: ManagedObjectConvertible {
    static let entityName = "Author"
    static let attributes: Set<Attribute<BookLibrary.Author>> = [.init(\.name, "name")]
    struct Relations {
        let books = ToManyRelation<BookLibrary.Book>("books")
    }
    static let relations = Relations()
}
