import Foundation

/// What a contender read or wrote, folded into sums that do not depend on row order: every column of
/// every item counts, so that a contender that skips rows, misreads a column or writes a wrong value
/// cannot match the figure worked out from ``InventoryData``'s generator.
public struct ItemChecksum: Sendable, Equatable, CustomStringConvertible {
    public var count = 0
    public var keySum: Int64 = 0
    public var entitySum: Int64 = 0
    public var versionSum: Int64 = 0
    public var activeCount: Int64 = 0
    public var codeHash: UInt64 = 0
    public var createdAtSum: Double = 0
    public var priceCentsSum: Int64 = 0
    public var quantitySum: Int64 = 0
    public var rankSum: Int64 = 0
    public var scoreSum: Int64 = 0
    public var titleHash: UInt64 = 0
    public var categorySum: Int64 = 0

    public init() {}

    /// A checksum that only counts (W1's and W4's run results: the rows are checked elsewhere).
    public init(count: Int) { self.count = count }

    /// The checksum of items `indices` as the generator makes them, stored as the benchmark stores them:
    /// key `i + 1`, entity `entity`, version `version`, category key `category + 1`.
    public init(indices: some Sequence<Int>, entity: Int64, version: Int64 = 1) {
        for i in indices {
            let item = InventoryData.item(i)
            add(
                key: Int64(i + 1), entity: entity, version: version, active: item.active, code: item.code,
                createdAt: item.createdAt.timeIntervalSinceReferenceDate, price: item.price, quantity: item.quantity,
                rank: Int64(item.rank), score: Int64(item.score), title: item.title, category: Int64(item.category + 1))
        }
    }

    /// Adds one row's values, as stored (booleans as 0/1 are passed as `Bool`, dates as seconds since 2001).
    public mutating func add(
        key: Int64, entity: Int64, version: Int64, active: Bool, code: String, createdAt: Double, price: Double,
        quantity: Int64, rank: Int64, score: Int64, title: String, category: Int64?
    ) {
        count += 1
        keySum &+= key
        entitySum &+= entity
        versionSum &+= version
        activeCount &+= active ? 1 : 0
        codeHash &+= Self.hash(code)
        createdAtSum += createdAt
        priceCentsSum &+= Int64((price * 100).rounded())
        quantitySum &+= quantity
        rankSum &+= rank
        scoreSum &+= score
        titleHash &+= Self.hash(title)
        categorySum &+= category ?? -1_000_000
    }

    /// FNV-1a over the UTF-8 bytes: a misread string changes the sum.
    static func hash(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return hash
    }

    public var description: String {
        "\(count) rows (keys \(keySum), entities \(entitySum), versions \(versionSum), active \(activeCount), "
            + "codes \(codeHash), dates \(createdAtSum), cents \(priceCentsSum), quantities \(quantitySum), "
            + "ranks \(rankSum), scores \(scoreSum), titles \(titleHash), categories \(categorySum))"
    }
}

extension ItemChecksum {
    /// Adds `other`'s rows to these.
    public mutating func merge(_ other: ItemChecksum) {
        count += other.count
        keySum &+= other.keySum
        entitySum &+= other.entitySum
        versionSum &+= other.versionSum
        activeCount &+= other.activeCount
        codeHash &+= other.codeHash
        createdAtSum += other.createdAtSum
        priceCentsSum &+= other.priceCentsSum
        quantitySum &+= other.quantitySum
        rankSum &+= other.rankSum
        scoreSum &+= other.scoreSum
        titleHash &+= other.titleHash
        categorySum &+= other.categorySum
    }
}
