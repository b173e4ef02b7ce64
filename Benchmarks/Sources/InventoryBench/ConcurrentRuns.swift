import Foundation
import Synchronization

/// Runs work on threads of its own, for the workloads that measure reads at the same time (W11, W12):
/// one thread per unit, all started together and joined.
enum ConcurrentRuns {
    /// Runs `body(0) … body(count - 1)` on `count` threads at once and returns their results in order;
    /// the first error thrown, if any, is rethrown after every thread ended.
    static func run<T: Sendable>(_ count: Int, _ body: @escaping @Sendable (Int) throws -> T) throws -> [T] {
        let results = Mutex<[Int: Result<T, any Error>]>([:])
        let group = DispatchGroup()
        for index in 0..<count {
            group.enter()
            let thread = Thread {
                let result = Result { try body(index) }
                results.withLock { $0[index] = result }
                group.leave()
            }
            thread.stackSize = 8 << 20
            thread.start()
        }
        group.wait()
        let collected = results.withLock { $0 }
        return try (0..<count).map { index in
            guard let result = collected[index] else { throw RawSQLite.Failure(description: "unit \(index) did not end") }
            return try result.get()
        }
    }
}
