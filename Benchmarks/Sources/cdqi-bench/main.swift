import CDQIStore
import Foundation
import InventoryBench

// bin/bench: every workload, three ways, then one summary line per workload (W11 parallel reads and
// W12 reads during writes run threads of their own).
//   cdqi-bench [--quick] [--only W2,W4,Q] [--rounds N]
//   cdqi-bench --w10-child KIND PATH BATCH   (internal: one W10 or W10kv contender in a process of its own)
//   cdqi-bench --w15-child KIND TEMPLATE ROWS   (internal: one W15 migration in a process of its own, for its memory)

let arguments = Array(CommandLine.arguments.dropFirst())
// The process-wide SQLite setting CDQI makes before its first connection (memory statistics off, see
// `SQLiteProcessSettings`). A process whose first SQLite user is CDQI gets it by itself; this one opens
// SQLite for the fixtures, the raw baseline and GRDB first, so it applies the setting at once: all three
// contenders run with it alike (children included).
let sqliteSettingApplied = SQLiteProcessSettings.apply()

/// Runs this benchmark executable again with `arguments` (a workload measured in a process of its own,
/// so that its memory is its own) and returns its exit status and, when it succeeded, its output trimmed.
func runChild(_ arguments: [String]) throws -> (status: Int32, output: String?) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { return (process.terminationStatus, nil) }
    return (0, String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
}

/// Writes a line at once (unbuffered), so that each workload's line shows as soon as it is measured,
/// even through a pipe.
func emit(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

if arguments.first == "--w10-child" {
    guard arguments.count == 4, let kind = IterationWorkload.Child(rawValue: arguments[1]), let batch = Int(arguments[3]) else {
        FileHandle.standardError.write(Data("usage: cdqi-bench --w10-child KIND PATH BATCH\n".utf8))
        exit(64)
    }
    do {
        let result = try IterationWorkload.runChild(kind: kind, path: arguments[2], batchSize: batch)
        emit(result.line)
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("W10 \(kind.rawValue): \(error)\n".utf8))
        exit(1)
    }
}

if arguments.first == "--w15-child" {
    guard arguments.count == 4, let kind = MigrationWorkload.Kind(rawValue: arguments[1]), let rows = Int(arguments[3]) else {
        FileHandle.standardError.write(Data("usage: cdqi-bench --w15-child KIND TEMPLATE ROWS\n".utf8))
        exit(64)
    }
    do {
        let fixture = try InventoryFixture(itemCount: 0)
        // exit() runs no deinit: remove the child's folder here.
        defer { try? FileManager.default.removeItem(at: fixture.folder) }
        let workload = try MigrationWorkload(
            fixture: fixture, rows: rows, label: "", template: URL(fileURLWithPath: arguments[2]))
        emit(try workload.childLine(kind: kind))
    } catch {
        FileHandle.standardError.write(Data("W15 \(kind.rawValue): \(error)\n".utf8))
        exit(1)
    }
    exit(0)
}

let quick = arguments.contains("--quick")
let only: Set<String>? = arguments.firstIndex(of: "--only").flatMap { index in
    index + 1 < arguments.count ? Set(arguments[index + 1].split(separator: ",").map { String($0) }) : nil
}
@MainActor func selected(_ id: String) -> Bool { only?.contains(id) ?? true }

var sizes = quick ? BenchmarkSizes.quick : BenchmarkSizes.full
// More rounds steady the medians on a noisy machine (each round times every contender once).
if let index = arguments.firstIndex(of: "--rounds") {
    guard index + 1 < arguments.count, let rounds = Int(arguments[index + 1]), rounds > 0 else {
        FileHandle.standardError.write(Data("usage: cdqi-bench --rounds N (N > 0)\n".utf8))
        exit(64)
    }
    sizes.rounds = rounds
}
var summary: [String] = []
@MainActor func report(_ line: String) {
    emit(line)
    summary.append(line)
}

do {
    emit(
        "cdqi-bench: \(quick ? "quick" : "full") sizes, \(sizes.rounds) timed rounds after a warm-up, medians; "
            + "SQLite memory statistics \(sqliteSettingApplied ? "off" : "on (the setting came too late)") for every contender")
    let suite = try BenchmarkSuite(sizes: sizes)
    let runner = WorkloadRunner(rounds: sizes.rounds)
    for workload in try suite.workloads() where selected(workload.id) {
        report(try runner.run(workload).summaryLine)
    }
    if selected("W8") { report(try suite.predicateLine()) }
    if selected("WS") || selected("WSr") {
        let sworm = try SwormWorkload(fixture: suite.fixture)
        if selected("WS") { report(try runner.run(sworm.workload(label: sizes.label.items)).summaryLine) }
        if selected("WSr") { report(try runner.run(sworm.workloadWithTeardown(label: sizes.label.items)).summaryLine) }
    }
    if selected("WP") {
        report(try runner.run(PersistenceWorkload(fixture: suite.fixture).workload(label: sizes.label.items)).summaryLine)
    }
    if selected(BatchWriteWorkload.id) {
        for workload in try BatchWriteWorkload.workloads(suite: suite) { report(try runner.run(workload).summaryLine) }
    }
    if selected("Q") { report(suite.queryBuildLine()) }
    if selected(LightyearWorkload.id) { report(try LightyearWorkload.line(suite: suite, rounds: sizes.rounds)) }
    if selected("W9") {
        report(try GeneratorWorkload.line(rounds: sizes.rounds))
        report(GeneratorWorkload.largeModelLine(entities: quick ? 1_000 : 10_000, rounds: sizes.rounds))
    }
    if selected(ObservedChangeWorkload.id) {
        // 10,000 rows at both sizes: the issue's goal is set at that size, and it takes a second.
        report(try ObservedChangeWorkload.line(fixture: suite.fixture, rows: 10_000, label: "10k", rounds: sizes.rounds))
    }
    if selected(LiveQueryWorkload.id) {
        report(try LiveQueryWorkload.line(fixture: suite.fixture, rows: 10_000, label: "10k", rounds: sizes.rounds))
    }
    if selected("W11") {
        let workload = ParallelReadWorkload(fixture: suite.fixture, codes: sizes.lookupCodes, rounds: sizes.rounds)
        report(try workload.line(label: sizes.label.items))
    }
    if selected("W12") {
        report(try ReadDuringWritesWorkload(fixture: suite.fixture, codes: sizes.lookupCodes, rounds: sizes.rounds).line())
    }
    if selected(MigrationWorkload.id) {
        // The W10 sizes: 1M rows, 20k with --quick.
        let workload = try MigrationWorkload(fixture: suite.fixture, rows: sizes.iterateRows, label: sizes.label.iterate)
        report(
            try workload.line(rounds: sizes.rounds) { kind, template in
                try runChild(["--w15-child", kind.rawValue, template.path, String(sizes.iterateRows)]).output ?? ""
            })
    }
    if selected("W10") || selected("W10kv") {
        let url = try suite.fixture.makePopulatedStore(named: "iterate.sqlite", itemCount: sizes.iterateRows, withParts: false)
        var kinds = selected("W10") ? IterationWorkload.Child.typed : [.raw]
        if selected("W10kv") { kinds.append(.oursKeyValue) }
        // Rounds, each running every contender's child once in turn, so that a slow stretch of the machine
        // reaches all of them alike; medians of the times, the largest peaks.
        var samples: [IterationWorkload.Child: [IterationWorkload.ChildResult]] = [:]
        for _ in 0..<sizes.rounds {
            for kind in kinds {
                let child = try runChild(["--w10-child", kind.rawValue, url.path, String(sizes.iterateBatch)])
                if let text = child.output, let result = IterationWorkload.ChildResult(line: text) {
                    samples[kind, default: []].append(result)
                } else {
                    report("W10 \(kind.rawValue): the child failed (status \(child.status))")
                }
            }
        }
        let results = samples.compactMapValues(IterationWorkload.ChildResult.combining)
        if selected("W10") {
            report(IterationWorkload.line(label: sizes.label.iterate, batchSize: sizes.iterateBatch, results: results))
        }
        if selected("W10kv") {
            report(IterationWorkload.keyValueLine(label: sizes.label.iterate, batchSize: sizes.iterateBatch, results: results))
        }
    }
} catch {
    FileHandle.standardError.write(Data("cdqi-bench: \(error)\n".utf8))
    exit(1)
}

emit("\nSummary")
for line in summary { emit(line) }
