/// One of the three ways a workload runs (GRDB counts twice: its Codable records and its hand-written ones).
public struct Contender {
    public enum Kind: String, CaseIterable, Sendable {
        case ours, raw, grdbCodable, grdbHandWritten
    }

    public var kind: Kind
    /// Untimed work before each timed run (a fresh file to insert into, a fresh context).
    public var prepare: () throws -> Void
    /// The timed work; returns a checksum (usually a row count) that must agree across contenders.
    public var run: () throws -> Int

    public init(_ kind: Kind, prepare: @escaping () throws -> Void = {}, run: @escaping () throws -> Int) {
        self.kind = kind
        self.prepare = prepare
        self.run = run
    }
}

/// A workload: its summary label, what GRDB's hand-written path is called for it, and its contenders.
public struct Workload {
    public var id: String
    public var label: String
    /// "row init" for reads, "hand-written encode" for writes.
    public var handWrittenLabel: String
    /// What "ours" used, when worth saying (for example "FetchRequest, limit 1: Query has no execution yet").
    public var note: String?
    public var contenders: [Contender]
}

/// The timings of one workload: per contender, one duration per round.
public struct WorkloadResult {
    public var workload: Workload
    public var seconds: [Contender.Kind: [Double]]
    public var checksums: [Contender.Kind: Int]

    public func median(_ kind: Contender.Kind) -> Double? {
        seconds[kind].map(Measurement.median)
    }

    /// The median over rounds of ours/`other` within each round.
    public func ratio(to other: Contender.Kind) -> Double? {
        guard let ours = seconds[.ours], let theirs = seconds[other], ours.count == theirs.count, !ours.isEmpty else {
            return nil
        }
        return Measurement.median(zip(ours, theirs).map { $0 / $1 })
    }

    /// The stable summary line.
    public var summaryLine: String {
        func ms(_ kind: Contender.Kind) -> String? { median(kind).map { fixedDecimals($0 * 1000) + " ms" } }
        var parts: [String] = []
        if let ours = ms(.ours) { parts.append("ours \(ours)") }
        if let raw = ms(.raw) { parts.append("raw \(raw)") }
        if let codable = ms(.grdbCodable) { parts.append("GRDB \(codable) (Codable)") }
        if let hand = ms(.grdbHandWritten) { parts.append("GRDB \(hand) (\(workload.handWrittenLabel))") }
        if let r = ratio(to: .raw) { parts.append("ours/raw \(fixedDecimals(r, digits: 2))") }
        if let r = ratio(to: .grdbCodable) { parts.append("ours/GRDB \(fixedDecimals(r, digits: 2))") }
        if let r = ratio(to: .grdbHandWritten) { parts.append("ours/GRDB \(fixedDecimals(r, digits: 2)) (\(workload.handWrittenLabel))") }
        var line = "\(workload.id) \(workload.label): " + parts.joined(separator: ", ")
        let distinct = Set(checksums.values)
        if distinct.count > 1 {
            line +=
                " [RESULTS DIFFER: "
                + Contender.Kind.allCases.compactMap { kind in
                    checksums[kind].map { "\(kind.rawValue) \($0)" }
                }.joined(separator: ", ") + "]"
        }
        if let note = workload.note { line += " [\(note)]" }
        return line
    }
}

/// Runs workloads: one untimed warm-up round, then `rounds` timed rounds, the contenders' order
/// rotating from round to round so that none always runs first.
public struct WorkloadRunner {
    public var rounds: Int

    public init(rounds: Int) { self.rounds = rounds }

    public func run(_ workload: Workload, warmUp: Bool = true) throws -> WorkloadResult {
        var result = WorkloadResult(workload: workload, seconds: [:], checksums: [:])
        let contenders = workload.contenders
        if warmUp {
            for contender in contenders {
                try contender.prepare()
                result.checksums[contender.kind] = try contender.run()
            }
        }
        for round in 0..<rounds {
            for offset in 0..<contenders.count {
                let contender = contenders[(round + offset) % contenders.count]
                try contender.prepare()
                var checksum = 0
                let seconds = try Measurement.seconds { checksum = try contender.run() }
                result.seconds[contender.kind, default: []].append(seconds)
                result.checksums[contender.kind] = checksum
            }
        }
        return result
    }
}
