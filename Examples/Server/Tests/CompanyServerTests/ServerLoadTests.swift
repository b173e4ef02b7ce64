import CDQIInterchange
import CDQIStore
import CompanyAPI
import Foundation
import NIOHTTP1
import Testing

/// Issue 16's example-server test: the server on a loopback port, 8 concurrent clients × 500 requests
/// of mixed reads and writes. Every answer must equal the one the client's script worked out for it
/// (no error, no lost or stale write), the whole run must answer exactly as the same requests sent one
/// at a time to a second server, every acknowledged write must be there afterwards, and the store must
/// pass `PRAGMA integrity_check` and Core Data's bookkeeping checks.
@Suite struct ServerLoadTests {
    static let clients = 8
    static let requestsPerClient = 500
    static let seed: UInt64 = 16

    let scripts = (0..<Self.clients).map { ClientScript(client: $0, requests: Self.requestsPerClient, seed: Self.seed) }

    @Test func concurrentClientsAnswerAsASequentialRun() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("company-server-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(scripts.allSatisfy { $0.steps.count == Self.requestsPerClient })

        // 8 clients at once, each on its own connection.
        let concurrentStore = folder.appendingPathComponent("concurrent.sqlite")
        let clock = ContinuousClock()
        var concurrentTime = Duration.zero
        let concurrent = try await RunningServer.with(store: concurrentStore) { port in
            let started = clock.now
            let runs = try await withThrowingTaskGroup(of: ClientRun.self) { group in
                for script in scripts {
                    group.addTask {
                        try await HTTPConnection.withConnection(port: port) { await ScriptRunner(script: script).run(on: &$0) }
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }.sorted { $0.client < $1.client }
            }
            let elapsed = clock.now - started
            try await checkFinalState(port: port, runs: runs)
            return (runs, elapsed)
        }
        concurrentTime = concurrent.1
        let concurrentRuns = concurrent.0
        for run in concurrentRuns {
            #expect(run.failures.isEmpty, "\(run.failures.count) failures, first: \(run.failures.prefix(3))")
        }
        #expect(try StoreChecker(model: CompanyServer.model).check(concurrentStore) == [])

        // The same scripts, one request at a time on one connection, against a second server.
        let sequentialStore = folder.appendingPathComponent("sequential.sqlite")
        let sequentialRuns = try await RunningServer.with(store: sequentialStore) { port in
            let runs = try await HTTPConnection.withConnection(port: port) { connection in
                var runs: [ClientRun] = []
                for script in scripts { runs.append(await ScriptRunner(script: script).run(on: &connection)) }
                return runs
            }
            try await checkFinalState(port: port, runs: runs)
            return runs
        }
        for run in sequentialRuns {
            #expect(run.failures.isEmpty, "\(run.failures.count) failures, first: \(run.failures.prefix(3))")
        }
        #expect(try StoreChecker(model: CompanyServer.model).check(sequentialStore) == [])
        for (concurrentRun, sequentialRun) in zip(concurrentRuns, sequentialRuns) {
            #expect(concurrentRun.outcomes == sequentialRun.outcomes, "client \(concurrentRun.client)")
        }

        report(concurrentRuns, elapsed: concurrentTime)
    }

    /// After a run: every employee a client's script left is there with its last values, every one it
    /// deleted is gone, no two creates got one key, and the departments and salary report cover the
    /// sample data and every client's employees exactly.
    func checkFinalState(port: Int, runs: [ClientRun]) async throws {
        let allKeys = runs.flatMap(\.keys)
        #expect(Set(allKeys).count == allKeys.count, "two creates got the same key")
        try await HTTPConnection.withConnection(port: port) { connection in
            for (script, run) in zip(scripts, runs) {
                for (slot, expected) in script.slots.enumerated() where run.keys.indices.contains(slot) {
                    let result = try await connection.send(.GET, "/employees/\(run.keys[slot])")
                    if let expected {
                        #expect(result.status == 200, "client \(script.client) slot \(slot) lost")
                        if result.status == 200 {
                            let record = try JSONDecoder().decode(EmployeeRecord.self, from: result.body)
                            let found = ExpectedEmployee(
                                label: expected.label, firstName: record.firstName, lastName: record.lastName,
                                nickName: record.nickName, salary: record.salary, department: record.department)
                            #expect(found == expected, "client \(script.client) slot \(slot)")
                        }
                    } else {
                        #expect(result.status == 404, "client \(script.client) slot \(slot) was deleted but answers \(result.status)")
                    }
                }
            }

            let departments = try await connection.send(.GET, "/departments")
            try ScriptRunner.require(departments, status: 200)
            let expectedDepartments = (SampleExpectations.departments + scripts.flatMap(\.departments)).sorted()
            #expect(try JSONDecoder().decode(DepartmentList.self, from: departments.body).departments.map(\.name) == expectedDepartments)

            let stats = try await connection.send(.GET, "/stats")
            try ScriptRunner.require(stats, status: 200)
            // The sample's figures, then each client's departments, by name; no department (NULL) first.
            let expectedStats = (SampleExpectations.stats + scripts.flatMap(\.finalStats)).sorted {
                ($0.department ?? "") < ($1.department ?? "")
            }
            #expect(try JSONDecoder().decode(SalaryReport.self, from: stats.body).departments == expectedStats)

            let everyone = try await connection.send(.GET, "/employees?limit=1000")
            try ScriptRunner.require(everyone, status: 200)
            let expectedCount = SampleData.employees.count + scripts.map(\.finalEmployees.count).reduce(0, +)
            #expect(try JSONDecoder().decode(EmployeeList.self, from: everyone.body).employees.count == min(expectedCount, 1_000))
        }
    }

    /// Throughput and latency of the concurrent run (printed, not asserted: the machine's load decides them).
    func report(_ runs: [ClientRun], elapsed: Duration) {
        let latencies = runs.flatMap(\.latencies).sorted()
        guard !latencies.isEmpty else { return }
        func percentile(_ fraction: Double) -> String {
            let index = min(latencies.count - 1, Int((Double(latencies.count) * fraction).rounded(.up)) - 1)
            return Self.milliseconds(latencies[max(0, index)])
        }
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let writes = scripts.flatMap(\.steps).filter {
            switch $0.0 {
            case .createDepartment, .create, .update, .delete: true
            case .get, .list, .stats: false
            }
        }.count
        print(
            """
            example server: \(latencies.count) requests (\(writes) writes) from \(runs.count) clients in \
            \(String(format: "%.2f", seconds)) s, \(String(format: "%.0f", Double(latencies.count) / seconds)) requests/s; \
            latency p50 \(percentile(0.5)) ms, p99 \(percentile(0.99)) ms, max \(percentile(1)) ms
            """)
    }

    static func milliseconds(_ duration: Duration) -> String {
        let value = Double(duration.components.seconds) * 1e3 + Double(duration.components.attoseconds) / 1e15
        return String(format: "%.2f", value)
    }
}
