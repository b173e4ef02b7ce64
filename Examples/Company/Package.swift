// swift-tools-version: 6.1
// The README's example: `bin/demo` generates the Company fixture's proxies, entity classes and model
// into Sources/CompanyExample/Generated (with `cdqi Company --objects`), then runs this program.
import PackageDescription

let package = Package(
    name: "CompanyExample",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "CoreDataQueryInterface", path: "../..")],
    targets: [
        .executableTarget(
            name: "CompanyExample",
            dependencies: [
                .product(name: "CoreDataQueryInterface", package: "CoreDataQueryInterface"),
                .product(name: "CDQIStore", package: "CoreDataQueryInterface"),
                .product(name: "CDQIModel", package: "CoreDataQueryInterface"),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
