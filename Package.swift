// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "CoreDataQueryInterface",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "CoreDataQueryInterface", targets: ["CoreDataQueryInterface"]),
        .library(name: "CDQIModel", targets: ["CDQIModel"]),
        .library(name: "CDQIPredicate", targets: ["CDQIPredicate"]),
        .library(name: "CDQIStore", targets: ["CDQIStore"]),
        .library(name: "CDQIGenerator", targets: ["CDQIGenerator"]),
        .library(name: "CDQIInterchange", targets: ["CDQIInterchange"]),
        .library(name: "CDQILint", targets: ["CDQILint"]),
        .executable(name: "cdqi", targets: ["cdqi"]),
        .plugin(name: "CDQIPlugin", targets: ["CDQIPlugin"]),
        // lightyear/Query's API over the store (issue 19).
        .library(name: "Query", targets: ["Query"]),
        // Sworm's API (prisma-ai/Sworm) over our store.
        .library(name: "Sworm", targets: ["Sworm"]),
        // Persistence's API (DAOFactory, DAOs, search criteria) over our store (issue 21).
        .library(name: "Persistence", targets: ["Persistence"]),
        // The PostgreSQL store: driver (libpq), connection, Core Data's layout in a schema (issue 22).
        .library(name: "CDQIPostgres", targets: ["CDQIPostgres"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // `swift package generate-documentation`: the DocC catalogs of the public modules.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // System libraries: pkg-config finds the headers; the providers feed SwiftPM's install hint.
        .systemLibrary(
            name: "CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"]), .brew(["libxml2"])]
        ),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]),
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        .systemLibrary(name: "CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"]), .brew(["libpq"])]),

        // The managed object model and the .xcdatamodeld loader.
        .target(name: "CDQIModel", dependencies: ["CLibXML2", "CZlib"]),
        // The predicate/expression AST, the format-string parser and printer, the in-memory evaluator.
        .target(name: "CDQIPredicate"),
        // The SQL compiler: fetch requests, predicates and dictionary fetches to SQL text with bound values,
        // in SQLite's or PostgreSQL's dialect, and Core Data's table layout (names, columns, join tables).
        .target(name: "CDQISQL", dependencies: ["CDQIModel", "CDQIPredicate"]),
        // The object graph, storage-agnostic: managed objects, contexts, faulting, saving, merge policies,
        // change notifications, fetched-results controllers, live results and batch requests, over the
        // `PersistentStore` protocol; it imports no store (neither CDQISQLite nor CSQLite).
        .target(
            name: "CDQIObjects",
            dependencies: ["CDQIModel", "CDQIPredicate", "CDQISQL", .product(name: "Logging", package: "swift-log")]
        ),
        // The SQLite store: the driver (connections, statements, Core Data's SQL functions and collations),
        // the store file with its writer and pool of readers, and the coordinator's SQLite initializers.
        .target(
            name: "CDQISQLite",
            dependencies: [
                "CDQIModel", "CDQIObjects", "CDQIPredicate", "CDQISQL", "CSQLite", .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // What `import CDQIStore` gives: the object graph, the SQL compiler and the SQLite store
        // (re-exported), and the migration of store files between model versions.
        .target(
            name: "CDQIStore",
            dependencies: ["CDQIModel", "CDQIObjects", "CDQIPredicate", "CDQISQL", "CDQISQLite"]
        ),
        // The public query API and the proxy types generated code builds on.
        .target(name: "CoreDataQueryInterface", dependencies: ["CDQIModel", "CDQIPredicate", "CDQIStore"]),
        // The JSON import/export format and the store queries of the cdqi store commands.
        // Reads and writes SQLite files and PostgreSQL schemas alike (issue 22).
        .target(name: "CDQIInterchange", dependencies: ["CDQIModel", "CDQIPostgres", "CDQIPredicate", "CDQIStore"]),
        // Checks the query strings of Swift sources against a model (cdqi lint).
        .target(name: "CDQILint", dependencies: ["CDQIModel", "CDQIPredicate", "CDQIStore"]),
        // Model → Swift source.
        .target(name: "CDQIGenerator", dependencies: ["CDQIModel"]),
        // The command-line tool.
        .executableTarget(
            name: "cdqi",
            dependencies: [
                "CDQIGenerator",
                "CDQIInterchange",
                "CDQILint",
                "CDQIModel",
                "CDQIPostgres",
                "CDQIStore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Runs cdqi over a target's .xcdatamodeld bundles at build time.
        .plugin(name: "CDQIPlugin", capability: .buildTool(), dependencies: ["cdqi"]),

        // Helpers shared by the test targets.
        .target(name: "CDQITestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "CDQIModelTests", dependencies: ["CDQIModel", "CDQITestSupport"]),
        .testTarget(name: "CDQIPredicateTests", dependencies: ["CDQIPredicate", "CDQITestSupport"]),
        .testTarget(
            name: "CDQIStoreTests",
            dependencies: [
                "CDQIStore", "CDQIModel", "CDQIPredicate", "CDQITestSupport", "cdqi-crash-writer",
                // The PostgreSQL twin of the SQL differential test, and the app servers of its concurrency test.
                "CDQIPostgres", "cdqi-postgres-worker",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // A child process the store tests kill in the middle of saves.
        .executableTarget(name: "cdqi-crash-writer", dependencies: ["CDQIStore", "CDQIModel", "CDQIPredicate"], path: "Tests/CrashWriter"),
        // One of several app servers saving conflicting changes to one PostgreSQL store (issue 22 item 4).
        .executableTarget(
            name: "cdqi-postgres-worker", dependencies: ["CDQIPostgres", "CDQIStore", "CDQIModel", "CDQIPredicate"],
            path: "Tests/PostgresWorker"),
        .testTarget(name: "CDQIGeneratorTests", dependencies: ["CDQIGenerator", "CDQIModel", "CDQITestSupport"], exclude: ["Expected"]),
        .testTarget(name: "CoreDataQueryInterfaceTests", dependencies: ["CoreDataQueryInterface"], exclude: ["TypeCheckProbes"]),
        // Containers, contexts and async queries used from actors, the main actor and nonisolated code.
        .testTarget(
            name: "CDQIConcurrencyTests",
            dependencies: ["CoreDataQueryInterface", "CDQIStore", "CDQIModel", "CDQITestSupport", "CDQIPostgres"]),
        .testTarget(
            name: "CDQICLITests", dependencies: ["cdqi", "CDQIPostgres", "CDQIStore", "CDQITestSupport", "cdqi-crash-writer"],
            exclude: ["Expected"]),
        .testTarget(name: "CDQILintTests", dependencies: ["CDQILint", "CDQIModel", "CDQIStore"]),
        // lightyear/Query's API over the store, and its tests (issue 19).
        .target(name: "Query", dependencies: ["CDQIStore", "CDQIPredicate", "CDQIModel"]),
        .testTarget(name: "QueryTests", dependencies: ["Query", "CDQIStore", "CDQIPredicate", "CDQIModel"], exclude: ["Fixtures/README.md"]),
        // Sworm's API (prisma-ai/Sworm) over our store, and its tests.
        .target(name: "Sworm", dependencies: ["CDQIStore", "CDQIPredicate", "CDQIModel"]),
        .testTarget(name: "SwormTests", dependencies: ["Sworm", "CDQIStore", "CDQIPredicate", "CDQIModel"]),
        // Persistence's API (DAOFactory, DAOs, search criteria) over our store, and its tests (issue 21).
        .target(name: "Persistence", dependencies: ["CDQIStore", "CDQIPredicate", "CDQIModel"]),
        .testTarget(name: "PersistenceTests", dependencies: ["Persistence", "CDQIStore", "CDQIPredicate", "CDQIModel"]),
        // The PostgreSQL store (issue 22): libpq connections, Core Data's layout in a schema, and its tests
        // (those needing a server skip unless CDQI_POSTGRES_URL is set; bin/postgres-cluster starts one).
        .target(name: "CDQIPostgres", dependencies: ["CLibPQ", "CDQISQL", "CDQIObjects", "CDQIModel", "CDQIPredicate"]),
        .testTarget(name: "CDQIPostgresTests", dependencies: ["CDQIPostgres", "CDQIStore", "CDQIModel", "CDQIPredicate"]),
        .testTarget(name: "CDQIInterchangeTests", dependencies: ["CDQIInterchange", "CDQIModel", "CDQIPredicate", "CDQIStore", "CDQITestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
