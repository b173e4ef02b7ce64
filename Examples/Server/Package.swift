// swift-tools-version: 6.1
// A JSON API over the Company model with Hummingbird 2: a context per request, reads through the async
// query forms, writes through performBackgroundTask. Its own package, so the library does not depend on
// Hummingbird. `bin/example-server-test` (at the repository's root) builds it and runs its load test.
import PackageDescription

let package = Package(
    name: "CompanyServer",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "company-server", targets: ["company-server"])
    ],
    dependencies: [
        .package(name: "CoreDataQueryInterface", path: "../.."),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        // Already dependencies of Hummingbird's: named here for the test's HTTP client and server group.
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.0.0"),
    ],
    targets: [
        // The model (the plugin generates its classes, proxies and CompanyModel), the store and the routes.
        .target(
            name: "CompanyAPI",
            dependencies: [
                .product(name: "CoreDataQueryInterface", package: "CoreDataQueryInterface"),
                .product(name: "CDQIStore", package: "CoreDataQueryInterface"),
                .product(name: "CDQIModel", package: "CoreDataQueryInterface"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ],
            plugins: [.plugin(name: "CDQIPlugin", package: "CoreDataQueryInterface")]
        ),
        // The server: `swift run company-server --port 8080 --store Company.sqlite`.
        .executableTarget(
            name: "company-server",
            dependencies: [
                "CompanyAPI",
                .product(name: "Hummingbird", package: "hummingbird"),
            ]
        ),
        // 8 clients × 500 requests against the server on a loopback port, checked against a model of the
        // expected state and against the same requests run one at a time.
        .testTarget(
            name: "CompanyServerTests",
            dependencies: [
                "CompanyAPI",
                .product(name: "CDQIInterchange", package: "CoreDataQueryInterface"),
                .product(name: "CDQIStore", package: "CoreDataQueryInterface"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
