import Foundation

/// What a piece of work cost the whole process (every thread): wall-clock and CPU seconds, the minor
/// page faults it took (`ru_minflt`: memory the heap gave back to the system and takes again, for one)
/// and the times its threads waited (`ru_nvcsw`, voluntary context switches: sleeping on a lock, a
/// condition or the disk). Figures are `Double`s so that medians of them read alike.
struct ProcessUsage {
    var seconds: Double
    var cpuSeconds: Double
    var minorFaults: Double
    var waits: Double

    /// Runs `body` and returns its result with what it cost.
    static func measure<T>(_ body: () throws -> T) rethrows -> (result: T, usage: ProcessUsage) {
        let before = Counters.now()
        let clock = ContinuousClock()
        let start = clock.now
        let result = try body()
        let seconds = (clock.now - start) / .seconds(1)
        let after = Counters.now()
        let usage = ProcessUsage(
            seconds: seconds, cpuSeconds: after.cpuSeconds - before.cpuSeconds,
            minorFaults: Double(after.minorFaults - before.minorFaults), waits: Double(after.waits - before.waits))
        return (result, usage)
    }

    /// Each figure's median over `samples` (0 for none).
    static func medians(_ samples: [ProcessUsage]) -> ProcessUsage {
        ProcessUsage(
            seconds: Measurement.median(samples.map(\.seconds)), cpuSeconds: Measurement.median(samples.map(\.cpuSeconds)),
            minorFaults: Measurement.median(samples.map(\.minorFaults)), waits: Measurement.median(samples.map(\.waits)))
    }

    /// The process's running totals, read together (one `getrusage`).
    private struct Counters {
        var cpuSeconds: Double
        var minorFaults: Int
        var waits: Int

        static func now() -> Counters {
            var usage = rusage()
            getrusage(RUSAGE_SELF.rawValue, &usage)
            return Counters(cpuSeconds: Measurement.processCPUSeconds(), minorFaults: usage.ru_minflt, waits: usage.ru_nvcsw)
        }
    }
}
