import Testing

@testable import CDQISQLite

/// `KeyCounts`, the table counting a batch delete's version bumps per destination key: every key comes
/// back with the number of times it was added, across growth, colliding keys and extreme values.
@Suite("Key counts")
struct KeyCountsTests {
    @Test("each key is counted as often as it was added, through many growths")
    func countsThroughGrowth() {
        var counts = KeyCounts()
        defer { counts.release() }
        // Key k (0 ..< 5000) added (k % 7) + 1 times, interleaved round by round.
        for round in 0..<7 {
            for key in 0..<5000 where key % 7 >= round { counts.add(Int64(key)) }
        }
        #expect(counts.count == 5000)
        let pairs = counts.pairs
        #expect(pairs.count == 5000)
        #expect(pairs.allSatisfy { $0.count == $0.key % 7 + 1 })
        #expect(Set(pairs.map(\.key)) == Set((0..<5000).map { Int64($0) }))
    }

    @Test("negative, extreme and colliding keys stay apart")
    func extremeKeys() {
        var counts = KeyCounts()
        defer { counts.release() }
        // Multiples of 2^60 share their low bits; the extremes and -1 too are ordinary keys here.
        let keys: [Int64] = [0, -1, 1, .min, .max, 1 << 60, 2 << 60, 3 << 60, -(1 << 60)]
        for (position, key) in keys.enumerated() {
            for _ in 0...position { counts.add(key) }
        }
        #expect(counts.count == keys.count)
        let found = Dictionary(uniqueKeysWithValues: counts.pairs.map { ($0.key, $0.count) })
        let expected: [Int64: Int64] = [
            0: 1, -1: 2, 1: 3, Int64.min: 4, Int64.max: 5, 1 << 60: 6, 2 << 60: 7, 3 << 60: 8, -(1 << 60): 9,
        ]
        #expect(found == expected)
    }

    @Test("an empty table has no pairs")
    func empty() {
        let counts = KeyCounts()
        defer { counts.release() }
        #expect(counts.count == 0)
        #expect(counts.pairs.isEmpty)
    }
}
