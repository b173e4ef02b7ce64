import Foundation

/// W10: walking a million rows a batch at a time. Each contender runs in a child process of its own,
/// so that its peak resident memory is its own (a process's peak never goes down, and memory freed by
/// one contender would hide the next one's growth).
public enum IterationWorkload {
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
    }

    /// Runs one contender in this process (the child side).
    public static func runChild(kind: Contender.Kind, path: String, batchSize: Int) throws -> ChildResult {
        let model = try InventoryFixture.loadModel()
        Measurement.resetPeakResidentSize()
        let baseline = Measurement.residentSize()?.current ?? 0
        var rows = 0
        let seconds = try Measurement.seconds {
            switch kind {
            case .ours:
                rows = try OursWorkloads.iterate(url: URL(fileURLWithPath: path), model: model, batchSize: batchSize)
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

    /// The W10 summary line from the children's results.
    public static func line(label: String, batchSize: Int, results: [Contender.Kind: ChildResult]) -> String {
        func mib(_ bytes: Int) -> String { fixedDecimals(Double(bytes) / 1_048_576) + " MiB" }
        var parts: [String] = []
        let names: [(Contender.Kind, String)] = [
            (.ours, "ours"), (.raw, "raw"), (.grdbCodable, "GRDB (Codable cursor)"), (.grdbHandWritten, "GRDB (row init cursor)"),
        ]
        for (kind, name) in names {
            guard let result = results[kind] else { continue }
            parts.append("\(name) \(fixedDecimals(result.seconds * 1000)) ms, peak +\(mib(result.peakGrowth))")
        }
        if let ours = results[.ours], let theirs = results[.grdbCodable], theirs.peakGrowth > 0 {
            parts.append("ours/GRDB peak \(fixedDecimals(Double(ours.peakGrowth) / Double(theirs.peakGrowth), digits: 2))")
        }
        let rows = Set(results.values.map(\.rows))
        var line = "W10 iterate \(label) (batch \(batchSize)): " + parts.joined(separator: ", ")
        if rows.count > 1 { line += " [ROW COUNTS DIFFER: \(results.mapValues(\.rows))]" }
        return line
    }
}
