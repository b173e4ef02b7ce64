import CDQIStore
import Foundation
import Query

// lightyear/Query's lookup (issue 19) against the same lookup through CDQI's `Query` (W3's shape).
// This file imports the `Query` module and not `CoreDataQueryInterface`, whose `Query` would clash;
// the CDQI contender is `OursWorkloads.lookups(codes:)`, written in a file that imports the latter.

extension Item: Queryable {
    enum Attribute {
        case code
    }
}

/// The LY line: `Item.query(in: context).where([.code: c]).first()`, `lookups` times, against
/// `context.from(Item.self).filter { $0.code == c }.first()`, both in fresh contexts of the same
/// container, timed round by round in one run.
public enum LightyearWorkload {
    /// The line's id for `--only`.
    public static let id = "LY"

    /// Times both contenders and returns the summary line with their ratio (goal ≤ 1.2).
    public static func line(suite: BenchmarkSuite, rounds: Int) throws -> String {
        let codes = suite.sizes.lookupCodes
        // The same container (so the same store connection) as the CDQI contender.
        let container = suite.ours.container
        var context = container.newContext()
        let lightyear = Contender(
            .ours, prepare: { context = container.newContext() },
            run: {
                var found = 0
                for code in codes {
                    if let item = try Item.query(in: context).where([.code: code]).first(), item.code == code {
                        found += 1
                    }
                }
                return found
            })
        let cdqi = suite.ours.lookups(codes: codes)
        // As WorkloadRunner does (a warm-up, then rounds alternating which contender goes first), with
        // each run's thread CPU time beside its wall-clock time: on a shared machine, a run preempted
        // by other processes takes longer on the wall clock only.
        let contenders = [lightyear, cdqi]
        var checksums: [Int] = []
        for contender in contenders {
            try contender.prepare()
            checksums.append(try contender.run())
        }
        var wall: [[Double]] = [[], []]
        var cpu: [[Double]] = [[], []]
        for round in 0..<rounds {
            for offset in 0..<2 {
                let index = (round + offset) % 2
                try contenders[index].prepare()
                let cpuStart = threadCPUTime()
                let seconds = try Measurement.seconds { _ = try contenders[index].run() }
                cpu[index].append(threadCPUTime() - cpuStart)
                wall[index].append(seconds)
            }
        }
        func ms(_ values: [Double]) -> String { fixedDecimals(Measurement.median(values) * 1000) + " ms" }
        func ratio(_ values: [[Double]]) -> String {
            fixedDecimals(Measurement.median(zip(values[0], values[1]).map { $0 / $1 }), digits: 2)
        }
        var line =
            "\(id) lightyear lookup by code x\(suite.sizes.label.lookups): "
            + "Item.query(in:).where([.code: c]).first() \(ms(wall[0])), "
            + "CDQI from(Item.self).filter { $0.code == c }.first() \(ms(wall[1])), "
            + "lightyear/CDQI \(ratio(wall)) (goal ≤ 1.20); CPU time \(ms(cpu[0])) vs \(ms(cpu[1])), ratio \(ratio(cpu))"
        if checksums[0] != checksums[1] {
            line += " [RESULTS DIFFER: lightyear \(checksums[0]), CDQI \(checksums[1])]"
        }
        return line
    }

    /// The CPU time this thread has used, in seconds.
    private static func threadCPUTime() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
    }
}
