import Foundation
import Synchronization

/// Runs work on threads at the same time, for the workloads that measure reads in parallel (W11, W12).
///
/// The threads are long-lived workers, as a server's are (an event loop's, an executor's): made on
/// first use, kept for the life of the process, and unit `i` of a run always runs on worker `i`. A new
/// thread per unit, as this used before, modelled no server and cost every contender a heap arena that
/// glibc had given back to the system since its last thread ended: tens of thousands of page faults
/// per round that a long-lived worker's arena does not pay.
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

/// A thread that runs one job at a time, given by ``start(_:)``, and waits for the next.
final class WorkerThread: Sendable {
    private let job = Mutex<(@Sendable () -> Void)?>(nil)
    private let wake = DispatchSemaphore(value: 0)

    init() {
        let thread = Thread { [self] in serve() }
        thread.stackSize = 8 << 20
        thread.start()
    }

    /// The thread's life: wait for a job, run it, wait for the next.
    private func serve() -> Never {
        while true {
            wake.wait()
            // Taken out of the slot before it runs: the job's last act lets the caller give the next
            // one, which this one's clean-up must not clear.
            let next = job.withLock { slot -> (@Sendable () -> Void)? in
                defer { slot = nil }
                return slot
            }
            next?()
        }
    }

    /// Runs `work` on this thread; the caller waits for it by its own means (``ConcurrentRuns`` by a
    /// dispatch group) before giving the next.
    func start(_ work: @escaping @Sendable () -> Void) {
        job.withLock { $0 = work }
        wake.signal()
    }
}
