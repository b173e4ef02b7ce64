import CCallgrindBench

/// One way of running a workload, with the untimed work around each timed run.
public struct PostgresContender: Sendable {
    public var kind: PostgresContenderKind
    /// Untimed, before each run: puts the tables back as the workload expects them.
    public var prepare: @Sendable () async throws -> Void
    /// The timed run; returns what it read.
    public var run: @Sendable () async throws -> any ItemRows
    /// Untimed, after each run: reads back what the run wrote and throws if it is wrong.
    public var verify: @Sendable () async throws -> Void

    public init(
        _ kind: PostgresContenderKind, prepare: @escaping @Sendable () async throws -> Void = {},
        run: @escaping @Sendable () async throws -> any ItemRows, verify: @escaping @Sendable () async throws -> Void = {}
    ) {
        self.kind = kind
        self.prepare = prepare
        self.run = run
        self.verify = verify
    }
}

/// A workload: its label, the checksum every contender's run must return, and its contenders.
public struct PostgresWorkload: Sendable {
    public var id: String
    public var label: String
    public var expected: ItemChecksum
    /// What was checked, and anything a reader must know about how the contenders differ.
    public var note: String
    public var contenders: [PostgresContender]
}

/// A contender whose result is not the generator's: its time must not be printed.
public struct WrongResult: Error, CustomStringConvertible {
    public var workload: String
    public var kind: PostgresContenderKind
    public var detail: String

    public var description: String { "\(workload): \(kind.rawValue) is wrong: \(detail)" }
}

/// The timings of one workload: per contender, one duration per round.
public struct PostgresWorkloadResult: Sendable {
    public var workload: PostgresWorkload
    public var seconds: [PostgresContenderKind: [Double]]

    public func median(_ kind: PostgresContenderKind) -> Double? { seconds[kind].map(Measurement.median) }

    /// The faster raw driver (by median): the line's floor.
    public var floor: PostgresContenderKind? {
        PostgresContenderKind.allCases.filter(\.isRaw).compactMap { kind in median(kind).map { (kind, $0) } }
            .min { $0.1 < $1.1 }?.0
    }

    /// The median over rounds of `kind`'s time over `other`'s within each round.
    public func ratio(_ kind: PostgresContenderKind, to other: PostgresContenderKind) -> Double? {
        guard let mine = seconds[kind], let theirs = seconds[other], mine.count == theirs.count, !mine.isEmpty else {
            return nil
        }
        return Measurement.median(zip(mine, theirs).map { $0 / $1 })
    }

    /// The summary line: each contender's median, the floor, then each one over the floor (and, once
    /// "ours" runs, ours over Fluent).
    public var summaryLine: String {
        var parts: [String] = []
        for kind in PostgresContenderKind.allCases {
            if let time = median(kind) { parts.append("\(kind.rawValue) \(fixedDecimals(time * 1000)) ms") }
        }
        var ratios: [String] = []
        if let floor {
            ratios.append("floor \(floor.rawValue)")
            for kind in PostgresContenderKind.allCases where kind != floor {
                if let r = ratio(kind, to: floor) { ratios.append("\(kind.rawValue)/floor \(fixedDecimals(r, digits: 2))") }
            }
        }
        if let r = ratio(.ours, to: .fluent) { ratios.append("ours/Fluent \(fixedDecimals(r, digits: 2))") }
        return "\(workload.id) \(workload.label): " + parts.joined(separator: ", ") + "; " + ratios.joined(separator: ", ")
            + " [\(workload.note)]"
    }
}

/// Runs workloads: one untimed warm-up run of each contender, then `rounds` timed rounds, the
/// contenders' order rotating from round to round so that none always runs first. Every run, warm-up
/// or timed, is checked: its result against the workload's expected checksum, then ``PostgresContender/verify``.
///
/// With `callgrind`, under `valgrind --tool=callgrind --instr-atstart=no`, valgrind counts the timed runs'
/// instructions only (this process's: the client side; every thread, so postgres-nio's event loop too)
/// and writes one profile per timed run, described as `W2 libpq` (`bin/bench-postgres --callgrind`).
public struct PostgresWorkloadRunner: Sendable {
    public var rounds: Int
    public var callgrind: Bool

    public init(rounds: Int, callgrind: Bool = false) {
        self.rounds = rounds
        self.callgrind = callgrind
    }

    /// Whether this process runs under valgrind (and this build has callgrind's client requests).
    public static var isOnValgrind: Bool { cdqi_bench_on_valgrind() != 0 }

    public func run(_ workload: PostgresWorkload) async throws -> PostgresWorkloadResult {
        var result = PostgresWorkloadResult(workload: workload, seconds: [:])
        let contenders = workload.contenders
        for contender in contenders { _ = try await timedRun(contender, of: workload, counted: false) }
        for round in 0..<rounds {
            for offset in 0..<contenders.count {
                let contender = contenders[(round + offset) % contenders.count]
                result.seconds[contender.kind, default: []].append(
                    try await timedRun(contender, of: workload, counted: callgrind))
            }
        }
        return result
    }

    private func timedRun(_ contender: PostgresContender, of workload: PostgresWorkload, counted: Bool) async throws -> Double {
        try await contender.prepare()
        let clock = ContinuousClock()
        if counted { cdqi_bench_callgrind_start() }
        let start = clock.now
        let rows = try await contender.run()
        let elapsed = clock.now - start
        if counted { cdqi_bench_callgrind_stop("\(workload.id) \(contender.kind.rawValue)") }
        let checksum = rows.checksum()
        guard checksum == workload.expected else {
            throw WrongResult(
                workload: workload.id, kind: contender.kind, detail: "read \(checksum), expected \(workload.expected)")
        }
        do {
            try await contender.verify()
        } catch {
            throw WrongResult(workload: workload.id, kind: contender.kind, detail: "\(error)")
        }
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    }
}
