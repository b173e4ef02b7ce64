import Foundation
import PostgresInventoryBench

// bin/bench-postgres: W1, W2, W3, W4 and W7 against a PostgreSQL server, through libpq, postgres-nio,
// our driver (CDQIPostgres's PostgresConnection) and Fluent's models; one summary line per workload with
// each over the floor (the faster of libpq and postgres-nio).
//   cdqi-bench-postgres [--quick] [--only W2,W4] [--contenders ours,libpq] [--rounds N] [--callgrind]
// --contenders: run only these (ours, libpq, postgres-nio, cdqi driver, Fluent): a full-size run under
// callgrind without Fluent's billions of instructions.
// --callgrind: under `valgrind --tool=callgrind --instr-atstart=no`, count the timed runs' instructions
// only, one profile per run (bin/bench-postgres --callgrind runs valgrind and sums them up).
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
let contenders: Set<String>? = arguments.firstIndex(of: "--contenders").flatMap { index in
    index + 1 < arguments.count ? Set(arguments[index + 1].split(separator: ",").map { String($0) }) : nil
}
let callgrind = arguments.contains("--callgrind")
if callgrind && !PostgresWorkloadRunner.isOnValgrind {
    emit("cdqi-bench-postgres: --callgrind needs valgrind --tool=callgrind --instr-atstart=no (see bin/bench-postgres)", to: .standardError)
    exit(64)
}
guard let url = ProcessInfo.processInfo.environment["CDQI_POSTGRES_URL"], !url.isEmpty else {
    emit("cdqi-bench-postgres: set CDQI_POSTGRES_URL (bin/bench-postgres starts a local server)", to: .standardError)
    exit(64)
}

func loadAverage() -> String {
    (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))
        .map { $0.split(separator: " ").prefix(3).joined(separator: " ") } ?? "unknown"
}

/// The whole run; returns the exit status.
func runBenchmarks(url: String, sizes: BenchmarkSizes, only: Set<String>?, contenders: Set<String>?, callgrind: Bool) async -> Int32 {
    var failed = false
    do {
        emit(
            "cdqi-bench-postgres: \(sizes.items == BenchmarkSizes.full.items ? "full" : "quick") sizes, \(sizes.rounds) timed rounds"
                + " after a warm-up, medians; load average \(loadAverage()) at the start")
        let suite = try PostgresBenchSuite(url: url, sizes: sizes)
        let implementations = try await suite.implementations()
        do {
            let runner = PostgresWorkloadRunner(rounds: sizes.rounds, callgrind: callgrind)
            let running = implementations.filter { contenders?.contains($0.kind.rawValue) ?? true }
            for workload in suite.workloads(running) where only?.contains(workload.id) ?? true {
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
    return failed ? 1 : 0
}

/// The exit status, set by the benchmark's task.
final class ExitStatus: @unchecked Sendable {
    private let lock = NSLock()
    private var status: Int32 = 1
    var value: Int32 {
        get { lock.withLock { status } }
        set { lock.withLock { status = newValue } }
    }
}

// A synchronous main thread that waits for the run (a detached task): valgrind (`--callgrind`) cannot run
// an async main, whose main thread libdispatch turns into its signal thread.
let status = ExitStatus()
let finished = DispatchSemaphore(value: 0)
let (runSizes, runOnly, runContenders) = (sizes, only, contenders)
Task.detached {
    status.value = await runBenchmarks(url: url, sizes: runSizes, only: runOnly, contenders: runContenders, callgrind: callgrind)
    finished.signal()
}
finished.wait()
exit(status.value)
