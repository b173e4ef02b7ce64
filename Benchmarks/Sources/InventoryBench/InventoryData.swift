import Foundation

/// The benchmark's data set, the same for the three implementations: `itemCount` items over 100
/// categories; item `i` has `i % 3` parts.
public struct InventoryData: Sendable {
    public let itemCount: Int
    public static let categoryCount = 100

    public init(itemCount: Int) { self.itemCount = itemCount }

    /// One item's values.
    public struct Item: Sendable, Equatable {
        public var code: String
        public var title: String
        public var quantity: Int64
        public var score: Int32
        public var rank: Int16
        public var price: Double
        public var active: Bool
        public var createdAt: Date
        /// 0-based category index.
        public var category: Int
    }

    /// The values of item `i` (0-based).
    public static func item(_ i: Int) -> Item {
        Item(
            code: code(i), title: "Item \(i)", quantity: Int64(i % 1000), score: Int32((i &* 7) % 10_000),
            rank: Int16(i % 100), price: Double(i % 10_000) / 100, active: i % 2 == 0,
            createdAt: Date(timeIntervalSinceReferenceDate: 700_000_000 + Double(i) * 60),
            category: i % categoryCount)
    }

    /// Item `i`'s code: `C` and seven digits, so that codes sort as their numbers do.
    public static func code(_ i: Int) -> String {
        let digits = String(i)
        return "C" + String(repeating: "0", count: max(0, 7 - digits.count)) + digits
    }

    /// Category `c`'s name.
    public static func categoryName(_ c: Int) -> String { "Category \(c)" }

    /// The number of parts of item `i`, and the kind of its part `j`.
    public static func partCount(_ i: Int) -> Int { i % 3 }
    public static func partKind(item i: Int, part j: Int) -> Int16 { Int16((i + j) % 5) }
}
