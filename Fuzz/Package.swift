// swift-tools-version: 6.1
// Fuzzing and speed measurement for CDQIPredicate, kept out of the main build.
//
// Fuzz (libFuzzer; see ../../shared/reference/reliability.md §2.5):
//   swift build -c release --sanitize=fuzzer --sanitize=address --product PredicateFuzzer --scratch-path .build/fuzz
//   SWIFT_BACKTRACE=enable=no .build/fuzz/release/PredicateFuzzer -dict=predicate.dict -max_len=512 -timeout=5 \
//       -rss_limit_mb=1024 -max_total_time=180 -print_final_stats=1 corpus/
// The store commands' inputs (CDQI_FUZZ_TARGET=model, json or store; seeds in seeds-<target>/):
//   swift build -c release --sanitize=fuzzer --sanitize=address --product StoreFuzzers --scratch-path .build/fuzz
//   CDQI_FUZZ_TARGET=json SWIFT_BACKTRACE=enable=no .build/fuzz/release/StoreFuzzers -max_len=4096 -timeout=5 \
//       -rss_limit_mb=1024 -max_total_time=600 -print_final_stats=1 corpus-json/ seeds-json/
// Speed:
//   swift run -c release --scratch-path .build/speed predicate-speed
import PackageDescription

let package = Package(
    name: "CDQIFuzz",
    dependencies: [.package(name: "main", path: "..")],
    targets: [
        .executableTarget(
            name: "PredicateFuzzer",
            dependencies: [.product(name: "CDQIPredicate", package: "main")]
        ),
        .executableTarget(
            name: "StoreFuzzers",
            dependencies: [
                .product(name: "CDQIModel", package: "main"),
                .product(name: "CDQIStore", package: "main"),
                .product(name: "CDQIInterchange", package: "main"),
            ]
        ),
        .executableTarget(
            name: "predicate-speed",
            dependencies: [.product(name: "CDQIPredicate", package: "main")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
