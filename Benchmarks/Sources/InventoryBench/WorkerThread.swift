import Foundation
import Synchronization

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
