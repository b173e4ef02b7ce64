import Foundation

/// W10: walking a million rows a batch at a time. Each contender runs in a child process of its own,
/// so that its peak resident memory is its own (a process's peak never goes down, and memory freed by
/// one contender would hide the next one's growth); each round runs every contender's child once, in
/// turn, and the line gives the median times and the largest peaks.
public enum IterationWorkload {
    /// A contender, run in a child process of its own.
    public enum Child: String, CaseIterable, Sendable {
        /// The cursor, each item's quantity read through the entity class's typed accessor.
        case ours
        /// The cursor, each item's quantity read with `value(forKey:)` (the W10kv line).
        case oursKeyValue
        case raw, grdbCodable, grdbHandWritten

        /// The children of the W10 line.
        public static let typed: [Child] = [.ours, .raw, .grdbCodable, .grdbHandWritten]
    }

    /// The result a child reports on one line: rows, seconds, peak RSS growth in bytes.
    public struct ChildResult: Sendable {
        public var rows: Int
        public var seconds: Double
        public var peakGrowth: Int

        public var line: String { "\(rows) \(seconds) \(peakGrowth)" }

        public init?(line: String) {
            let fields = line.split(separator: " ")
            guard fields.count == 3, let rows = Int(fields[0]), let seconds = Double(fields[1]),
                let growth = Int(fields[2])
            else { return nil }
            self.rows = rows
            self.seconds = seconds
            self.peakGrowth = growth
        }

        init(rows: Int, seconds: Double, peakGrowth: Int) {
            self.rows = rows
            self.seconds = seconds
            self.peakGrowth = peakGrowth
        }

        /// One contender's rounds as one result: the median time, the largest peak, and the fewest rows
        /// (so that a round that walked fewer rows shows in the line's row-count warning); `nil` for none.
        public static func combining(_ rounds: [ChildResult]) -> ChildResult? {
            guard let rows = rounds.map(\.rows).min(), let peak = rounds.map(\.peakGrowth).max() else { return nil }
            return ChildResult(rows: rows, seconds: Measurement.median(rounds.map(\.seconds)), peakGrowth: peak)
        }
    }

    /// Runs one contender in this process (the child side).
    public static func runChild(kind: Child, path: String, batchSize: Int) throws -> ChildResult {
        let model = try InventoryFixture.loadModel()
        Measurement.resetPeakResidentSize()
        let baseline = Measurement.residentSize()?.current ?? 0
        var rows = 0
        let seconds = try Measurement.seconds {
            switch kind {
            case .ours:
                rows = try OursWorkloads.iterate(url: URL(fileURLWithPath: path), model: model, batchSize: batchSize)
            case .oursKeyValue:
                rows = try OursWorkloads.iterate(
                    url: URL(fileURLWithPath: path), model: model, batchSize: batchSize, keyValue: true)
            case .raw:
                rows = try RawWorkloads.iterate(path: path)
            case .grdbCodable:
                rows = try GRDBWorkloads.iterate(path: path, handWritten: false)
            case .grdbHandWritten:
                rows = try GRDBWorkloads.iterate(path: path, handWritten: true)
            }
        }
        let peak = Measurement.residentSize()?.peak ?? 0
        return ChildResult(rows: rows, seconds: seconds, peakGrowth: max(0, peak - baseline))
    }

    /// The W10 summary line from the children's results: times and peaks, then the time ratios to raw
    /// and to GRDB's row-init cursor (the like-for-like one: a hand-written struct against a generated
    /// class's typed accessor) beside the peak ratio to GRDB's cursor.
    public static func line(label: String, batchSize: Int, results: [Child: ChildResult]) -> String {
        var parts: [String] = []
        let names: [(Child, String)] = [
            (.ours, "ours"), (.raw, "raw"), (.grdbCodable, "GRDB (Codable cursor)"), (.grdbHandWritten, "GRDB (row init cursor)"),
        ]
        for (kind, name) in names {
            guard let result = results[kind] else { continue }
            parts.append("\(name) \(fixedDecimals(result.seconds * 1000)) ms, peak +\(mib(result.peakGrowth))")
        }
        if let ratio = timeRatio(results[.ours], results[.raw]) { parts.append("ours/raw \(ratio)") }
        if let ratio = timeRatio(results[.ours], results[.grdbHandWritten]) { parts.append("ours/GRDB (row init) \(ratio)") }
        if let ours = results[.ours], let theirs = results[.grdbCodable], theirs.peakGrowth > 0 {
            parts.append("ours/GRDB peak \(fixedDecimals(Double(ours.peakGrowth) / Double(theirs.peakGrowth), digits: 2))")
        }
        var line = "W10 iterate \(label) (batch \(batchSize)): " + parts.joined(separator: ", ")
        line += rowCountWarning(results)
        return line + " [ours: context.cursor(for:), next() as? Item, item.quantity (typed accessor)]"
    }

    /// The W10kv line: the cursor read with `value(forKey:)`, against raw.
    public static func keyValueLine(label: String, batchSize: Int, results: [Child: ChildResult]) -> String {
        var parts: [String] = []
        for (kind, name) in [(Child.oursKeyValue, "ours"), (.raw, "raw")] {
            guard let result = results[kind] else { continue }
            parts.append("\(name) \(fixedDecimals(result.seconds * 1000)) ms, peak +\(mib(result.peakGrowth))")
        }
        if let ratio = timeRatio(results[.oursKeyValue], results[.raw]) { parts.append("ours/raw \(ratio)") }
        var line = "W10kv iterate \(label) (batch \(batchSize), key-value): " + parts.joined(separator: ", ")
        line += rowCountWarning(results)
        return line + " [ours: context.cursor(for:), next(), value(forKey: \"quantity\") as? Int64]"
    }

    private static func mib(_ bytes: Int) -> String { fixedDecimals(Double(bytes) / 1_048_576) + " MiB" }

    private static func timeRatio(_ ours: ChildResult?, _ theirs: ChildResult?) -> String? {
        guard let ours, let theirs, theirs.seconds > 0 else { return nil }
        return fixedDecimals(ours.seconds / theirs.seconds, digits: 2)
    }

    private static func rowCountWarning(_ results: [Child: ChildResult]) -> String {
        guard Set(results.values.map(\.rows)).count > 1 else { return "" }
        let counts = results.map { "\($0.key.rawValue) \($0.value.rows)" }.sorted().joined(separator: ", ")
        return " [ROW COUNTS DIFFER: \(counts)]"
    }
}
