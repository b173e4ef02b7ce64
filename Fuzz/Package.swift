// swift-tools-version: 6.1
// Fuzzing and speed measurement for CDQIPredicate, kept out of the main build.
//
// Fuzz (libFuzzer; see ../../shared/reference/reliability.md §2.5):
//   swift build -c release --sanitize=fuzzer --sanitize=address --product PredicateFuzzer --scratch-path .build/fuzz
//   SWIFT_BACKTRACE=enable=no .build/fuzz/release/PredicateFuzzer -dict=predicate.dict -max_len=512 -timeout=5 \
//       -rss_limit_mb=1024 -max_total_time=180 -print_final_stats=1 corpus/
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
            name: "predicate-speed",
            dependencies: [.product(name: "CDQIPredicate", package: "main")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
