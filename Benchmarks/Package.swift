// swift-tools-version: 6.1
import PackageDescription

// The benchmarks live in a package of their own, so that users of the library never inherit their
// dependencies (ordo-one/benchmark, GRDB).
let package = Package(
    name: "CDQIBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        // Named, so that product references work whatever the clone's folder is called.
        .package(name: "CoreDataQueryInterface", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", exact: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
    ],
    targets: [
        // The SQLite C API for the hand-written baseline (the library's own CSQLite is not a product).
        .systemLibrary(
            name: "CSQLiteRaw",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        // The workloads, each written three ways: ours, raw SQLite, GRDB.
        .target(
            name: "InventoryBench",
            dependencies: [
                "CSQLiteRaw",
                .product(name: "CoreDataQueryInterface", package: "CoreDataQueryInterface"),
                .product(name: "CDQIStore", package: "CoreDataQueryInterface"),
                .product(name: "CDQIModel", package: "CoreDataQueryInterface"),
                .product(name: "CDQIPredicate", package: "CoreDataQueryInterface"),
                .product(name: "CDQIGenerator", package: "CoreDataQueryInterface"),
                // lightyear/Query's API, for the LY line (issue 19).
                .product(name: "Query", package: "CoreDataQueryInterface"),
                // Sworm's API, for the WS lines (issue 20).
                .product(name: "Sworm", package: "CoreDataQueryInterface"),
                // Persistence's API, for the WP line (issue 21).
                .product(name: "Persistence", package: "CoreDataQueryInterface"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        // `bin/bench`: runs every workload and prints one summary line per workload.
        .executableTarget(
            name: "cdqi-bench",
            dependencies: ["InventoryBench", .product(name: "CDQIStore", package: "CoreDataQueryInterface")]
        ),
        // The same workloads under ordo-one/benchmark (`swift package benchmark`).
        .executableTarget(
            name: "CDQIBenchmarks",
            dependencies: [
                "InventoryBench",
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/CDQIBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
