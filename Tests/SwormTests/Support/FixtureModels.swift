import CDQIModel

/// The fixture models of the Sworm tests (see `Fixtures/README.md`, section "Sworm test models").
enum FixtureModels {
    /// `ABCD` {a Integer 16 required default 0, b Integer 64 required default 0, c String, d String}
    /// and `IDURL` {id UUID, url URI}: the predicate tests.
    static var predicates: ManagedObjectModel {
        ManagedObjectModel(entities: [
            ModelBuilder.entity(
                "ABCD",
                [
                    ModelBuilder.attribute("a", .integer16, required: true, defaultValue: "0"),
                    ModelBuilder.attribute("b", .integer64, required: true, defaultValue: "0"),
                    ModelBuilder.attribute("c", .string),
                    ModelBuilder.attribute("d", .string),
                ]),
            ModelBuilder.entity(
                "IDURL",
                [
                    ModelBuilder.attribute("id", .uuid),
                    ModelBuilder.attribute("url", .uri),
                ]),
        ])
    }

    /// The query guide's types: `T` {count Integer 32, date Date, id Integer 64, name String,
    /// marker String, amount Double; to-one `foo` ↔ Foo.ts}, `Foo` {name; to-many `bars` ↔ Bar.foo},
    /// `Bar` {name}, and the basic-usage `Author` {id UUID, name, age Integer 64} and `Book` {id UUID,
    /// name, date}, many-to-many `books` ↔ `authors`.
    static var guide: ManagedObjectModel {
        var entities = [
            ModelBuilder.entity(
                "T",
                [
                    ModelBuilder.attribute("amount", .double, required: true, defaultValue: "0"),
                    ModelBuilder.attribute("count", .integer32, required: true, defaultValue: "0"),
                    ModelBuilder.attribute("date", .date),
                    ModelBuilder.attribute("id", .integer64, required: true, defaultValue: "0"),
                    ModelBuilder.attribute("marker", .string, required: true, defaultValue: ""),
                    ModelBuilder.attribute("name", .string, required: true, defaultValue: ""),
                ]),
            ModelBuilder.entity("Foo", [ModelBuilder.attribute("name", .string)]),
            ModelBuilder.entity("Bar", [ModelBuilder.attribute("name", .string)]),
            ModelBuilder.entity(
                "Author",
                [
                    ModelBuilder.attribute("age", .integer64, required: true, defaultValue: "0"),
                    ModelBuilder.attribute("id", .uuid),
                    ModelBuilder.attribute("name", .string, required: true, defaultValue: ""),
                ]),
            ModelBuilder.entity(
                "Book",
                [
                    ModelBuilder.attribute("date", .date),
                    ModelBuilder.attribute("id", .uuid),
                    ModelBuilder.attribute("name", .string, required: true, defaultValue: ""),
                ]),
        ]
        ModelBuilder.relate(&entities, "T", "foo", "Foo", "ts", inverseToMany: true)
        ModelBuilder.relate(&entities, "Foo", "bars", toMany: true, "Bar", "foo")
        ModelBuilder.relate(&entities, "Author", "books", toMany: true, "Book", "authors", inverseToMany: true)
        return ManagedObjectModel(entities: entities)
    }

    /// `FullSet`: one attribute per primitive type (`x2` is an Integer 16 read as `Int`), plus `x14`
    /// and `x15`, Integer 32 attributes read as an `Int`-backed enumeration; `Narrow` {small Integer 16,
    /// wide Integer 64, real Double, text String}: a place to store values that do not fit.
    static var attributes: ManagedObjectModel {
        ManagedObjectModel(entities: [
            ModelBuilder.entity(
                "FullSet",
                [
                    ModelBuilder.attribute("x1", .boolean, required: true, defaultValue: "NO"),
                    ModelBuilder.attribute("x2", .integer16, required: true, defaultValue: "0"),
                    ModelBuilder.attribute("x3", .integer16, required: true, defaultValue: "0"),
                    ModelBuilder.attribute("x4", .integer32, required: true, defaultValue: "0"),
                    ModelBuilder.attribute("x5", .integer64, required: true, defaultValue: "0"),
                    ModelBuilder.attribute("x6", .float, required: true, defaultValue: "0"),
                    ModelBuilder.attribute("x7", .double, required: true, defaultValue: "0"),
                    ModelBuilder.attribute("x8", .decimal, required: true, defaultValue: "0"),
                    ModelBuilder.attribute("x9", .date),
                    ModelBuilder.attribute("x10", .string),
                    ModelBuilder.attribute("x11", .binaryData),
                    ModelBuilder.attribute("x12", .uuid),
                    ModelBuilder.attribute("x13", .uri),
                    ModelBuilder.attribute("x14", .integer32, required: true, defaultValue: "0"),
                    ModelBuilder.attribute("x15", .integer32),
                ]),
            ModelBuilder.entity(
                "Narrow",
                [
                    ModelBuilder.attribute("real", .double),
                    ModelBuilder.attribute("small", .integer16),
                    ModelBuilder.attribute("text", .string),
                    ModelBuilder.attribute("wide", .integer64),
                ]),
        ])
    }

    /// `Book` {id UUID required, name String, year Integer 64; unique `id`; to-one `cover` ↔ Cover.book,
    /// Cascade; ordered to-many `reviews` ↔ Review.book, Cascade; to-many `authors` ↔ Author.books},
    /// `Cover` {url URI}, `Review` {text String}, `Author` {name String}.
    static var library: ManagedObjectModel {
        var entities = [
            ModelBuilder.entity(
                "Book",
                [
                    ModelBuilder.attribute("id", .uuid),
                    ModelBuilder.attribute("name", .string, required: true, defaultValue: ""),
                    ModelBuilder.attribute("year", .integer64, required: true, defaultValue: "0"),
                ]),
            ModelBuilder.entity("Cover", [ModelBuilder.attribute("url", .uri)]),
            ModelBuilder.entity("Review", [ModelBuilder.attribute("text", .string, required: true, defaultValue: "")]),
            ModelBuilder.entity("Author", [ModelBuilder.attribute("name", .string, required: true, defaultValue: "")]),
        ]
        entities[0].uniquenessConstraints = [UniquenessConstraint(properties: ["id"])]
        ModelBuilder.relate(&entities, "Book", "cover", deleteRule: .cascade, "Cover", "book")
        ModelBuilder.relate(&entities, "Book", "reviews", toMany: true, ordered: true, deleteRule: .cascade, "Review", "book")
        ModelBuilder.relate(&entities, "Book", "authors", toMany: true, "Author", "books", inverseToMany: true)
        return ManagedObjectModel(entities: entities)
    }
}
