import CDQIStore
import CoreDataQueryInterface
import Foundation
import Synchronization

/// W12: reads during writes. Three reader threads, each with a context of its own, look items up by
/// their indexed code (W3's typed query), timing every lookup; first with no writer, then while a
/// writer thread saves batches of 1,000 new items, one after another, until the readers are done.
/// The line gives the lookups' p50 and p99 both ways and their ratios. It runs on a store file of its
/// own (the writes would change the other workloads' data).
public struct ReadDuringWritesWorkload {
    public static let readers = 3
    public static let batchSize = 1_000
    let fixture: InventoryFixture
    let codes: [String]

    public init(fixture: InventoryFixture, codes: [String]) {
        self.fixture = fixture
        self.codes = codes
    }

    /// Latencies of one run, in seconds, and the batches the writer saved meanwhile.
    struct Run {
        var latencies: [Double]
        var batches: Int

        func percentile(_ fraction: Double) -> Double {
            let sorted = latencies.sorted()
            guard !sorted.isEmpty else { return 0 }
            return sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
        }
    }

    /// The W12 summary line.
    public func line() throws -> String {
        let url = try fixture.makePopulatedStore(named: "w12-ours.sqlite", itemCount: fixture.data.itemCount, withParts: false)
        let container = try PersistentContainer(model: fixture.model, url: url)
        try InventoryEntities.register(on: container.coordinator)
        _ = try run(container: container, writing: false)  // warm-up: readers opened, pages cached
        let quiet = try run(container: container, writing: false)
        let busy = try run(container: container, writing: true)
        func us(_ seconds: Double) -> String { WorkloadResult.format(seconds * 1_000_000) + " µs" }
        func ratio(_ fraction: Double) -> String {
            WorkloadResult.format(busy.percentile(fraction) / quiet.percentile(fraction), digits: 2)
        }
        var line =
            "W12 reads during writes (\(Self.readers) readers × \(codes.count) lookups, writer saving "
            + "\(Self.batchSize)-object batches): ours p50 \(us(quiet.percentile(0.5))) without writer, "
            + "\(us(busy.percentile(0.5))) with (×\(ratio(0.5))); p99 \(us(quiet.percentile(0.99))) without, "
            + "\(us(busy.percentile(0.99))) with (×\(ratio(0.99))); \(busy.batches) batches saved meanwhile"
        let expected = Self.readers * codes.count
        if quiet.latencies.count != expected || busy.latencies.count != expected {
            line += " [LOOKUPS MISSING: \(quiet.latencies.count), \(busy.latencies.count) of \(expected)]"
        }
        return line
    }

    /// One run: the readers, and with `writing` the writer until the readers are done.
    func run(container: PersistentContainer, writing: Bool) throws -> Run {
        let codes = self.codes
        let readersLeft = ReadersLeft(Self.readers)
        let threads = Self.readers + (writing ? 1 : 0)
        let results: [[Double]] = try ConcurrentRuns.run(threads) { index in
            if index == Self.readers {
                return [Double(try Self.write(container: container, while: readersLeft))]
            }
            defer { readersLeft.count.subtract(1, ordering: .releasing) }
            return try Self.read(container: container, codes: codes)
        }
        return Run(latencies: results.prefix(Self.readers).flatMap { $0 }, batches: writing ? Int(results[Self.readers].first ?? 0) : 0)
    }

    /// Looks every code up once through a new context; each lookup's time, in seconds.
    static func read(container: PersistentContainer, codes: [String]) throws -> [Double] {
        let context = container.newContext()
        var latencies: [Double] = []
        latencies.reserveCapacity(codes.count)
        for code in codes {
            let start = DispatchTime.now().uptimeNanoseconds
            guard let item = try context.from(Item.self).filter({ $0.code == code }).first(), item.code == code else {
                throw RawSQLite.Failure(description: "W12: no item \(code)")
            }
            latencies.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        return latencies
    }

    /// Saves batches of new items, each through a new context, while readers are left; the batch count.
    static func write(container: PersistentContainer, while readersLeft: ReadersLeft) throws -> Int {
        var batches = 0
        var next = 0
        while readersLeft.count.load(ordering: .acquiring) > 0 {
            let context = container.newContext()
            for _ in 0..<batchSize {
                let values = InventoryData.item(next)
                let item = try context.insert(Item.self)
                item.active = values.active
                item.code = "W" + values.code
                item.createdAt = values.createdAt
                item.price = values.price
                item.quantity = values.quantity
                item.rank = values.rank
                item.score = values.score
                item.title = values.title
                next += 1
            }
            _ = try context.save()
            batches += 1
        }
        return batches
    }
}

/// The number of W12 readers still reading, shared by the readers and the writer.
final class ReadersLeft: Sendable {
    let count: Atomic<Int>

    init(_ count: Int) { self.count = Atomic(count) }
}
