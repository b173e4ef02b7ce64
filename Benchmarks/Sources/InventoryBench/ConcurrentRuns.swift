import Foundation
import Synchronization

/// Runs work on threads at the same time, for the workloads that measure reads in parallel (W11, W12).
///
/// The threads are long-lived workers (``WorkerThread``), as a server's are (an event loop's, an
/// executor's): made on first use, kept for the life of the process, and unit `i` of a run always runs
/// on worker `i`. Runs do not overlap (the benchmark runs one workload at a time). A new thread per
/// unit, as this used before, modelled no server and gave each unit a heap arena glibc had trimmed
/// since its last thread ended: raw's four W11 units took about 19,000 page faults a round that way,
/// 60–90 on workers.
enum ConcurrentRuns {
    /// The workers made so far, in the order units are given to them.
    private static let workers = Mutex<[WorkerThread]>([])

    /// Runs `body(0) … body(count - 1)` on `count` workers at once and returns their results in order;
    /// the first error thrown, if any, is rethrown after every unit ended.
    static func run<T: Sendable>(_ count: Int, _ body: @escaping @Sendable (Int) throws -> T) throws -> [T] {
        let results = Mutex<[Int: Result<T, any Error>]>([:])
        let group = DispatchGroup()
        let pool = workers.withLock { workers in
            while workers.count < count { workers.append(WorkerThread()) }
            return Array(workers.prefix(count))
        }
        for (index, worker) in pool.enumerated() {
            group.enter()
            worker.start {
                let result = Result { try body(index) }
                results.withLock { $0[index] = result }
                group.leave()
            }
        }
        group.wait()
        let collected = results.withLock { $0 }
        return try (0..<count).map { index in
            guard let result = collected[index] else { throw RawSQLite.Failure(description: "unit \(index) did not end") }
            return try result.get()
        }
    }
}
