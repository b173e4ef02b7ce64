// swift-tools-version: 6.1
import PackageDescription

// The PostgreSQL benchmarks (issue 22), in a package of their own: vapor/fluent-kit and postgres-nio take
// minutes to build, and CI's `bin/bench --quick` over the main Benchmarks package must stay quick.
// `bin/bench-postgres` builds and runs it against a local server.
let package = Package(
    name: "CDQIPostgresBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        // Named, so that product references work whatever the clone's folder is called.
        .package(name: "CoreDataQueryInterface", path: "../.."),
        .package(url: "https://github.com/vapor/postgres-nio", exact: "1.33.2"),
        .package(url: "https://github.com/vapor/fluent-kit", exact: "1.57.0"),
        .package(url: "https://github.com/vapor/fluent-postgres-driver", exact: "2.14.0"),
    ],
    targets: [
        // libpq's C API for the hand-written baseline (the library's own CLibPQ is not a product).
        .systemLibrary(name: "CLibPQBench", pkgConfig: "libpq", providers: [.apt(["libpq-dev"]), .brew(["libpq"])]),
        // Callgrind's client requests (header only; nothing without valgrind's headers) for `--callgrind`.
        .systemLibrary(name: "CCallgrindBench"),
        // W1, W2, W3, W4 and W7 over PostgreSQL, each written against libpq, postgres-nio, our driver
        // (CDQIPostgres's PostgresConnection) and Fluent's models.
        .target(
            name: "PostgresInventoryBench",
            dependencies: [
                "CLibPQBench",
                "CCallgrindBench",
                .product(name: "CDQIPostgres", package: "CoreDataQueryInterface"),
                .product(name: "CDQIStore", package: "CoreDataQueryInterface"),
                .product(name: "CDQIModel", package: "CoreDataQueryInterface"),
                .product(name: "CDQIPredicate", package: "CoreDataQueryInterface"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "FluentKit", package: "fluent-kit"),
                .product(name: "FluentPostgresDriver", package: "fluent-postgres-driver"),
            ]
        ),
        // `bin/bench-postgres`: runs every workload and prints one summary line per workload.
        .executableTarget(name: "cdqi-bench-postgres", dependencies: ["PostgresInventoryBench"]),
    ],
    swiftLanguageModes: [.v6]
)
