import Foundation
import PostgresInventoryBench

// bin/bench-postgres: W1, W2, W3, W4 and W7 against a PostgreSQL server, through libpq, postgres-nio,
// our driver (CDQIPostgres's PostgresConnection) and Fluent's models; one summary line per workload with
// each over the floor (the faster of libpq and postgres-nio).
//   cdqi-bench-postgres [--quick] [--only W2,W4] [--rounds N]
// The server is CDQI_POSTGRES_URL's (bin/bench-postgres starts one with bin/postgres-cluster).

/// Writes a line at once (unbuffered), so that each line shows as soon as it is measured.
func emit(_ line: String, to handle: FileHandle = .standardOutput) {
    handle.write(Data((line + "\n").utf8))
}

let arguments = Array(CommandLine.arguments.dropFirst())
let quick = arguments.contains("--quick")
var sizes = quick ? BenchmarkSizes.quick : BenchmarkSizes.full
if let index = arguments.firstIndex(of: "--rounds") {
    guard index + 1 < arguments.count, let rounds = Int(arguments[index + 1]), rounds > 0 else {
        emit("usage: cdqi-bench-postgres --rounds N (N > 0)", to: .standardError)
        exit(64)
    }
    sizes.rounds = rounds
}
let only: Set<String>? = arguments.firstIndex(of: "--only").flatMap { index in
    index + 1 < arguments.count ? Set(arguments[index + 1].split(separator: ",").map { String($0) }) : nil
}
guard let url = ProcessInfo.processInfo.environment["CDQI_POSTGRES_URL"], !url.isEmpty else {
    emit("cdqi-bench-postgres: set CDQI_POSTGRES_URL (bin/bench-postgres starts a local server)", to: .standardError)
    exit(64)
}

func loadAverage() -> String {
    (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))
        .map { $0.split(separator: " ").prefix(3).joined(separator: " ") } ?? "unknown"
}

var failed = false
do {
    emit(
        "cdqi-bench-postgres: \(quick ? "quick" : "full") sizes, \(sizes.rounds) timed rounds after a warm-up, medians;"
            + " load average \(loadAverage()) at the start")
    let suite = try PostgresBenchSuite(url: url, sizes: sizes)
    let implementations = try await suite.implementations()
    do {
        let runner = PostgresWorkloadRunner(rounds: sizes.rounds)
        for workload in suite.workloads(implementations) where only?.contains(workload.id) ?? true {
            emit(try await runner.run(workload).summaryLine)
        }
    } catch {
        emit("cdqi-bench-postgres: \(String(reflecting: error))", to: .standardError)
        failed = true
    }
    emit("cdqi-bench-postgres: load average \(loadAverage()) at the end")
    for implementation in implementations { try await implementation.shutdown() }
    try suite.database.drop()
} catch {
    emit("cdqi-bench-postgres: \(String(reflecting: error))", to: .standardError)
    failed = true
}
exit(failed ? 1 : 0)
