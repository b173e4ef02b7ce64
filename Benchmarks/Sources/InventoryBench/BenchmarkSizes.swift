/// How big each workload is: the sizes, or the small `--quick` ones for CI smoke runs.
public struct BenchmarkSizes: Sendable {
    public var items: Int
    public var lookups: Int
    public var counts: Int
    public var rangeWidth: Int
    public var aggregateRepeats: Int
    public var updates: Int
    public var iterateRows: Int
    public var iterateBatch: Int
    public var parses: Int
    public var evaluations: Int
    public var rounds: Int
    public var label: (items: String, lookups: String, counts: String, updates: String, iterate: String)

    public static let full = BenchmarkSizes(
        items: 100_000, lookups: 10_000, counts: 2_000, rangeWidth: 100, aggregateRepeats: 3, updates: 10_000,
        iterateRows: 1_000_000, iterateBatch: 1_000, parses: 20_000, evaluations: 200_000, rounds: 5,
        label: ("100k", "10k", "2k", "10k", "1M"))

    public static let quick = BenchmarkSizes(
        items: 2_000, lookups: 500, counts: 200, rangeWidth: 100, aggregateRepeats: 3, updates: 200,
        iterateRows: 20_000, iterateBatch: 1_000, parses: 2_000, evaluations: 20_000, rounds: 3,
        label: ("2k", "500", "200", "200", "20k"))

    /// The codes W3 looks up: spread over the whole table.
    public var lookupCodes: [String] {
        (0..<lookups).map { InventoryData.code($0 * items / lookups) }
    }

    /// The `[low, high)` code ranges W4 counts: `rangeWidth` items each, at scattered places.
    public var countRanges: [(String, String)] {
        let span = max(1, items - rangeWidth)
        return (0..<counts).map { k in
            let low = (k &* 7_919) % span
            return (InventoryData.code(low), InventoryData.code(low + rangeWidth))
        }
    }
}
