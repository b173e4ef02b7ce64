import CDQIModel
import CDQIStore
import CDQITestSupport
import Foundation
import Testing

/// Killing the process during saves never leaves a store that fails `PRAGMA integrity_check` or holds
/// half a save, and never loses a save that was acknowledged (reliability.md §2.1).
@Suite("Crash safety")
struct CrashSafetyTests {
    /// The `cdqi-crash-writer` binary, built beside the test bundle (the test target depends on it).
    private func writer() throws -> URL {
        var starts: [URL] = []
        if let executable = Bundle.main.executableURL { starts.append(executable) }
        if let first = CommandLine.arguments.first { starts.append(URL(fileURLWithPath: first)) }
        for bundle in Bundle.allBundles where bundle.bundleURL.pathExtension == "xctest" { starts.append(bundle.bundleURL) }
        for start in starts {
            var folder = start.resolvingSymlinksInPath().deletingLastPathComponent()
            for _ in 0..<5 {
                let candidate = folder.appendingPathComponent("cdqi-crash-writer")
                if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
                folder = folder.deletingLastPathComponent()
            }
        }
        throw CancellationError()
    }

    /// Waits (up to 30 s) until the writer says it has opened the store, so that the random delay before
    /// the kill is spent saving, however slowly the process started.
    private static func waitUntilReady(_ output: URL, process: Process) {
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline, process.isRunning {
            if let text = try? String(contentsOf: output, encoding: .utf8), text.contains("READY") { return }
            Thread.sleep(forTimeInterval: 0.005)
        }
    }

    /// Starts the writer with `arguments` and its output going to the file `output`, kills it with
    /// SIGKILL 50 to 299 ms after it is ready, and returns the batches it acknowledged (its `ACK n` lines).
    private static func killedWriterAcks(_ binary: URL, arguments: [String], output: URL, random: inout SeededGenerator) throws -> [Int] {
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        let handle = try FileHandle(forWritingTo: output)
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.standardOutput = handle
        process.standardError = FileHandle.nullDevice
        try process.run()
        waitUntilReady(output, process: process)
        Thread.sleep(forTimeInterval: 0.05 + Double(random.below(250)) / 1000)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        try handle.close()
        return String(decoding: try Data(contentsOf: output), as: UTF8.self)
            .split(separator: "\n").compactMap { $0.hasPrefix("ACK ") ? Int($0.dropFirst(4)) : nil }
    }

    /// Run on a WAL store and on a rollback-journal store (which stays one: the writer and the checks
    /// keep its journal mode).
    @Test(
        "SIGKILL at random moments during saves: the store stays whole, every acknowledged save is there",
        arguments: [false, true])
    func killDuringSaves(journal: Bool) throws {
        let binary = try writer()
        let (folder, cleanUp) = try StoreTestSupport.temporaryFolder()
        defer { cleanUp() }
        let store = folder.appendingPathComponent("Crash.sqlite")
        let model = StoreTestSupport.packageRoot.appendingPathComponent("Fixtures/Company.xcdatamodeld")
        var random = SeededGenerator(seed: 42)
        var acknowledged = 0, trials = 0, nextBatch = 1
        if journal {
            _ = try SQLiteStore(model: try StoreTestSupport.fixtureModel("Company"), url: store)
            try SQLiteConnection(path: store.path).execute("PRAGMA journal_mode = DELETE")
        }
        for trial in 0..<12 {
            let acks = try Self.killedWriterAcks(
                binary, arguments: [model.path, store.path, String(nextBatch)] + (journal ? ["journal"] : []),
                output: folder.appendingPathComponent("acks-\(trial)"), random: &random)
            trials += 1

            // Reopen as the next process would, then check the file with SQLite's own checks.
            let reopened = try SQLiteStore(
                model: try StoreTestSupport.fixtureModel("Company"), url: store, keepsJournalMode: journal)
            func scalar(_ sql: String) throws -> String {
                let statement = try reopened.connection.prepareUncached(sql)
                #expect(try statement.step())
                return statement.string(0)
            }
            #expect(try scalar("PRAGMA integrity_check") == "ok")
            if journal { #expect(try scalar("PRAGMA journal_mode") == "delete") }
            // Every batch is all or nothing: one department and 25 employees, or none of them.
            let partial = try scalar(
                """
                SELECT COUNT(*) FROM (SELECT ZSALARY, COUNT(*) AS n FROM ZEMPLOYEE GROUP BY ZSALARY) WHERE n != 25
                """)
            #expect(partial == "0", "a save was half written")
            #expect(try scalar("SELECT COUNT(*) FROM ZEMPLOYEE WHERE ZDEPARTMENT IS NULL") == "0")
            #expect(try scalar("SELECT COUNT(*) FROM ZEMPLOYEE e LEFT JOIN ZDEPARTMENT d ON d.Z_PK = e.ZDEPARTMENT WHERE d.Z_PK IS NULL") == "0")
            let highest = Int(try scalar("SELECT COALESCE(MAX(ZSALARY), 0) FROM ZEMPLOYEE")) ?? 0
            if let last = acks.last { #expect(highest >= last, "acknowledged batch \(last) was lost") }
            // Z_MAX covers every key handed out, so the next process allocates no duplicate.
            #expect(
                try scalar(
                    "SELECT Z_MAX >= (SELECT MAX(Z_PK) FROM ZEMPLOYEE) OR NOT EXISTS (SELECT 1 FROM ZEMPLOYEE) FROM Z_PRIMARYKEY WHERE Z_NAME = 'Employee'")
                    == "1")
            acknowledged += acks.count
            nextBatch = highest + 1
        }
        print(
            "crash safety (\(journal ? "rollback journal" : "WAL")): \(trials) kills, \(acknowledged) acknowledged saves, \(nextBatch - 1) batches stored, no damage"
        )
        #expect(acknowledged > 0)
    }

    @Test("SIGKILL at random moments during batch updates and deletes: each batch is all or nothing, acknowledged ones are there")
    func killDuringBatchWrites() throws {
        let binary = try writer()
        let (folder, cleanUp) = try StoreTestSupport.temporaryFolder()
        defer { cleanUp() }
        let store = folder.appendingPathComponent("BatchCrash.sqlite")
        let model = StoreTestSupport.packageRoot.appendingPathComponent("Fixtures/Company.xcdatamodeld")
        var random = SeededGenerator(seed: 7)
        var acknowledged = 0, nextBatch = 1
        for trial in 0..<8 {
            let acks = try Self.killedWriterAcks(
                binary, arguments: [model.path, store.path, String(nextBatch), "batch"],
                output: folder.appendingPathComponent("batch-acks-\(trial)"), random: &random)

            let reopened = try SQLiteStore(model: try StoreTestSupport.fixtureModel("Company"), url: store)
            func column(_ sql: String) throws -> [String] {
                let statement = try reopened.connection.prepareUncached(sql)
                var values: [String] = []
                while try statement.step() { values.append(statement.string(0)) }
                return values
            }
            #expect(try column("PRAGMA integrity_check") == ["ok"])
            // Per batch N (ZSALARY is N as saved, -N once batch-updated): 25 rows at N, 25 at -N with
            // Z_OPT 2, or 20 at -N with Z_OPT 2 after the batch delete; never a mix.
            let shapes = try column(
                """
                SELECT COUNT(*) || ' ' || (MIN(ZSALARY) = MAX(ZSALARY)) || ' ' || (MIN(ZSALARY) < 0) || ' ' || MIN(Z_OPT) || ' ' || MAX(Z_OPT)
                FROM ZEMPLOYEE GROUP BY ZLASTNAME
                """)
            #expect(shapes.allSatisfy { ["25 1 0 1 1", "25 1 1 2 2", "20 1 1 2 2"].contains($0) }, "a batch was half written: \(shapes)")
            for batch in acks {
                #expect(
                    try column("SELECT COUNT(*) || ' ' || MIN(ZSALARY) FROM ZEMPLOYEE WHERE ZLASTNAME = 'batch \(batch)'")
                        == ["20 -\(batch)"], "acknowledged batch \(batch) is not complete")
            }
            let highest = Int(try column("SELECT COALESCE(MAX(ABS(ZSALARY)), 0) FROM ZEMPLOYEE").first ?? "0") ?? 0
            acknowledged += acks.count
            nextBatch = highest + 1
        }
        print("batch crash safety: \(acknowledged) acknowledged batches, \(nextBatch - 1) stored, no damage")
        #expect(acknowledged > 0)
    }

    @Test("2 to 4 processes opening one new store together: each opens it and saves, none sees a half-made store")
    func concurrentCreation() throws {
        let binary = try writer()
        let (folder, cleanUp) = try StoreTestSupport.temporaryFolder()
        defer { cleanUp() }
        let model = StoreTestSupport.packageRoot.appendingPathComponent("Fixtures/Company.xcdatamodeld")
        for round in 0..<10 {
            let store = folder.appendingPathComponent("Round\(round).sqlite")
            let count = round % 2 == 0 ? 2 : 4
            var running: [(Process, URL, URL)] = []
            for child in 0..<count {
                let output = folder.appendingPathComponent("acks-\(round)-\(child)")
                let errors = folder.appendingPathComponent("errors-\(round)-\(child)")
                _ = FileManager.default.createFile(atPath: output.path, contents: nil)
                _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
                let process = Process()
                process.executableURL = binary
                // Distinct first batches (1000 apart) so that each child's rows are its own.
                process.arguments = [model.path, store.path, String(1 + child * 1000)]
                process.standardOutput = try FileHandle(forWritingTo: output)
                process.standardError = try FileHandle(forWritingTo: errors)
                running.append((process, output, errors))
            }
            for (process, _, _) in running { try process.run() }
            // Each writer saves until stopped: stop it once it acknowledged a save, or after 20 s.
            let deadline = Date().addingTimeInterval(20)
            for (process, output, _) in running {
                while process.isRunning, Date() < deadline,
                    !String(decoding: (try? Data(contentsOf: output)) ?? Data(), as: UTF8.self).contains("ACK ")
                {
                    Thread.sleep(forTimeInterval: 0.02)
                }
                if process.isRunning { kill(process.processIdentifier, SIGKILL) }
                process.waitUntilExit()
            }
            for (child, (_, output, errors)) in running.enumerated() {
                let acks = String(decoding: try Data(contentsOf: output), as: UTF8.self)
                let message = String(decoding: try Data(contentsOf: errors), as: UTF8.self)
                #expect(acks.hasPrefix("READY\nACK \(1 + child * 1000)\n"), "round \(round), child \(child): \(message)")
                #expect(message.isEmpty, "round \(round), child \(child)")
            }
            let reopened = try SQLiteStore(model: try StoreTestSupport.fixtureModel("Company"), url: store)
            let statement = try reopened.connection.prepareUncached("PRAGMA integrity_check")
            #expect(try statement.step())
            #expect(statement.string(0) == "ok")
        }
    }
}
