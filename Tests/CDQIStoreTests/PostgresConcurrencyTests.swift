import CDQIModel
import CDQIPostgres
import CDQIPredicate
import Foundation
import Testing

@testable import CDQIObjects
@testable import CDQISQLite
@testable import CDQIStore

/// Many app servers, one database (issue 22 item 4): four processes (`cdqi-postgres-worker`) save
/// conflicting changes to the same objects of one PostgreSQL store at once, under each merge policy.
/// Each worker reports every save it got acknowledged; the test replays the acknowledged saves of each
/// object in the order of the versions they produced, working out by the policy's rule what each one
/// must have stored, and checks each report and the final rows against that: nothing acknowledged is
/// lost, every conflict is resolved as the policy says, and `Z_OPT` is 1 + the number of committed updates.
@Suite(
    "Many processes saving to one PostgreSQL store",
    .serialized,
    .enabled(if: ProcessInfo.processInfo.environment["CDQI_POSTGRES_URL"] != nil, "CDQI_POSTGRES_URL is not set"))
struct PostgresConcurrencyTests {
    static let workers = 4
    static let rounds = 8
    static let counters = ["c0", "c1", "c2", "c3"]

    /// The model the workers use: Counter (`name`, `total`, one attribute `w0`…`w3` per worker, all
    /// Integer 64 defaulting to 0) and Entry (`name`), written into the test's scratch folder.
    static func writeModel(in folder: URL) throws -> URL {
        let bundle = folder.appendingPathComponent("Counters.xcdatamodeld")
        let version = bundle.appendingPathComponent("Counters.xcdatamodel")
        try FileManager.default.createDirectory(at: version, withIntermediateDirectories: true)
        let integers = ["total", "w0", "w1", "w2", "w3"].map {
            "        <attribute name=\"\($0)\" attributeType=\"Integer 64\" defaultValueString=\"0\" usesScalarValueType=\"YES\"/>"
        }
        let contents =
            [
                "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>",
                "<model type=\"com.apple.IDECoreDataModeler.DataModel\" documentVersion=\"1.0\" lastSavedToolsVersion=\"23507\" "
                    + "systemVersion=\"24G84\" minimumToolsVersion=\"Automatic\" sourceLanguage=\"Swift\" userDefinedModelVersionIdentifier=\"\">",
                "    <entity name=\"Counter\" representedClassName=\"Counter\" syncable=\"YES\">",
                "        <attribute name=\"name\" attributeType=\"String\"/>",
            ] + integers + [
                "    </entity>",
                "    <entity name=\"Entry\" representedClassName=\"Entry\" syncable=\"YES\">",
                "        <attribute name=\"name\" attributeType=\"String\"/>",
                "    </entity>",
                "</model>",
            ]
        try contents.joined(separator: "\n").write(to: version.appendingPathComponent("contents"), atomically: true, encoding: .utf8)
        return bundle
    }

    /// The `cdqi-postgres-worker` binary, built beside the test bundle (the test target depends on it).
    /// Starts `binary` once per argument list, each writing to its output file, waits (2 minutes at most)
    /// until every one has printed READY, creates `go` so that they start together, and waits up to
    /// `seconds` for them to end. Each process joins `processes` as it starts, so that the caller's
    /// clean-up can stop any left running.
    static func runTogether(
        _ binary: URL, _ argumentLists: [[String]], outputs: [URL], go: URL, waiting seconds: TimeInterval,
        processes: inout [(Process, URL)]
    ) throws {
        for (arguments, output) in zip(argumentLists, outputs) {
            _ = FileManager.default.createFile(atPath: output.path, contents: nil)
            let process = Process()
            process.executableURL = binary
            process.arguments = arguments
            process.standardOutput = try FileHandle(forWritingTo: output)
            try process.run()
            processes.append((process, output))
        }
        // Everyone has opened the store: start them together.
        let ready = Date().addingTimeInterval(120)
        while Date() < ready,
            processes.contains(where: { process, output in
                process.isRunning && !((try? String(contentsOf: output, encoding: .utf8))?.contains("READY") ?? false)
            })
        {
            Thread.sleep(forTimeInterval: 0.01)
        }
        _ = FileManager.default.createFile(atPath: go.path, contents: nil)
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline, processes.contains(where: { $0.0.isRunning }) { Thread.sleep(forTimeInterval: 0.02) }
    }

    static func workerBinary() throws -> URL {
        var starts: [URL] = []
        if let executable = Bundle.main.executableURL { starts.append(executable) }
        if let first = CommandLine.arguments.first { starts.append(URL(fileURLWithPath: first)) }
        for bundle in Bundle.allBundles where bundle.bundleURL.pathExtension == "xctest" { starts.append(bundle.bundleURL) }
        for start in starts {
            var folder = start.resolvingSymlinksInPath().deletingLastPathComponent()
            for _ in 0..<5 {
                let candidate = folder.appendingPathComponent("cdqi-postgres-worker")
                if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
                folder = folder.deletingLastPathComponent()
            }
        }
        throw PostgresError(kind: .server, message: "cdqi-postgres-worker is not built beside the tests")
    }

    /// `CDQI_POSTGRES_URL` with `schema` as its schema, password included (the workers connect with it).
    static func urlString(schema: String) -> String {
        let base = ProcessInfo.processInfo.environment["CDQI_POSTGRES_URL"] ?? ""
        return base + (base.contains("?") ? "&" : "?") + "schema=" + schema
    }

    /// What one worker's acknowledged save reported about one counter.
    struct Ack {
        var worker: Int
        var round: Int
        var readVersion: Int64
        /// `nil` when the policy dropped the worker's changes to this counter.
        var savedVersion: Int64?
        /// total, w0…w3 as read, and as the counter held them after the save.
        var read: [Int64]
        var saved: [Int64]
    }

    /// What the workers printed.
    struct Reports {
        var acks: [String: [Ack]] = [:]
        var conflicts = 0
        var inserts: [(worker: Int, round: Int, key: Int64)] = []
        var finished = 0
    }

    static func parse(_ text: String, worker: Int, into reports: inout Reports) throws {
        for line in text.split(separator: "\n") {
            let words = line.split(separator: " ").map(String.init)
            switch words.first {
            case "READY": continue
            case "DONE": reports.finished += 1
            case "CONFLICT": reports.conflicts += 1
            case "INSERT":
                let round = try #require(Int(words[1]))
                let key = try #require(Int64(words[2]))
                reports.inserts.append((worker, round, key))
            case "ACK":
                try #require(words.count == 15, "a malformed line: \(line)")
                let numbers = (words[5...]).compactMap { Int64($0) }
                try #require(numbers.count == 10, "a malformed line: \(line)")
                let savedVersion = Int64(words[4])
                try #require(savedVersion != nil || words[4] == "lost", "a malformed line: \(line)")
                let ack = Ack(
                    worker: worker, round: try #require(Int(words[1])), readVersion: try #require(Int64(words[3])),
                    savedVersion: savedVersion, read: Array(numbers[0..<5]),
                    saved: Array(numbers[5..<10]))
                reports.acks[words[2], default: []].append(ack)
            default:
                Issue.record("worker \(worker) printed an unexpected line: \(line)")
            }
        }
    }

    /// Starts the workers together on the store at `url` and returns what they reported.
    static func runWorkers(model: URL, url: String, policy: String, folder: URL) throws -> Reports {
        let binary = try workerBinary()
        let go = folder.appendingPathComponent("go")
        var processes: [(Process, URL)] = []
        defer { for (process, _) in processes where process.isRunning { process.terminate() } }
        try runTogether(
            binary, (0..<workers).map { [model.path, url, policy, String($0), String(rounds), go.path] },
            outputs: (0..<workers).map { folder.appendingPathComponent("worker\($0).out") }, go: go, waiting: 600,
            processes: &processes)
        var reports = Reports()
        for (worker, (process, output)) in processes.enumerated() {
            try #require(!process.isRunning, "worker \(worker) did not finish in 10 minutes")
            #expect(process.terminationStatus == 0, "worker \(worker) failed")
            try parse(try String(contentsOf: output, encoding: .utf8), worker: worker, into: &reports)
        }
        return reports
    }

    /// The counter after `ack`, worked out from the counter before it (`previous`, at the version
    /// before the ack's) by the policy's rule. Values are total, w0…w3; the worker added 10^worker to
    /// the total it read and set its own attribute to the round.
    static func expectedRow(after ack: Ack, previous: [Int64], policy: String) -> [Int64] {
        let amount = [1, 10, 100, 1000][ack.worker] as Int64
        var own = ack.read
        own[0] += amount
        own[1 + ack.worker] = Int64(ack.round)
        switch policy {
        case "overwrite":
            // The context's values replace the row: the others' changes since the read are gone.
            return own
        case "objectTrump":
            // The worker changed total and its own attribute: those are its; the rest is the store's.
            var row = previous
            row[0] = own[0]
            row[1 + ack.worker] = own[1 + ack.worker]
            return row
        case "storeTrump":
            // A property changed in the store since the read keeps the store's value; the others the worker's.
            return (0..<5).map { previous[$0] != ack.read[$0] ? previous[$0] : own[$0] }
        default:
            // .error and .rollback write only over the version read: the read is the previous row.
            return own
        }
    }

    @Test(
        "four processes save conflicting changes: nothing acknowledged is lost, every conflict resolved by the policy",
        arguments: ["error", "storeTrump", "objectTrump", "overwrite", "rollback"])
    func conflictingSaves(policy: String) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cdqi-pg-workers-" + UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let modelURL = try Self.writeModel(in: folder)
        let managedModel = try ModelLoader().load(url: modelURL).model
        let started = Date()
        try PostgresContextTests.withSchema { url, connection in
            // The counters, at version 1 with every value 0.
            let setup = ManagedObjectContext(coordinator: try PostgresContextTests.coordinator(managedModel, url))
            for name in Self.counters { _ = try ContextTestSupport.insert(setup, "Counter", ["name": name]) }
            try setup.save()

            let reports = try Self.runWorkers(
                model: modelURL, url: Self.urlString(schema: url.schema), policy: policy, folder: folder)
            #expect(reports.finished == Self.workers)
            var policyConflicts = reports.conflicts
            let rows = try PostgresContextTests.rows(
                connection, "SELECT \"ZNAME\", \"Z_OPT\", \"ZTOTAL\", \"ZW0\", \"ZW1\", \"ZW2\", \"ZW3\" FROM \"ZCOUNTER\" ORDER BY \"ZNAME\"")
            #expect(rows.map { $0[0] } == Self.counters)
            for row in rows {
                let name = row[0]
                let acks = reports.acks[name] ?? []
                // Every worker got every round acknowledged, once, for every counter.
                #expect(acks.count == Self.workers * Self.rounds, "counter \(name)")
                let written = acks.filter { $0.savedVersion != nil }.sorted { ($0.savedVersion ?? 0) < ($1.savedVersion ?? 0) }
                let lost = acks.filter { $0.savedVersion == nil }
                var version: Int64 = 1
                var current: [Int64] = [0, 0, 0, 0, 0]
                // The row at each version, for the saves whose changes the policy dropped.
                var history: [Int64: [Int64]] = [1: current]
                for ack in written {
                    // Each committed update made the next version: none is missing, none came twice.
                    #expect(ack.savedVersion == version + 1, "counter \(name): worker \(ack.worker) round \(ack.round)")
                    let conflicted = ack.readVersion != version
                    if conflicted {
                        #expect(ack.readVersion < version, "counter \(name): read a version from the future")
                        #expect(
                            ["storeTrump", "objectTrump", "overwrite"].contains(policy),
                            "counter \(name): a save under \(policy) wrote over a version it did not read")
                        policyConflicts += 1
                    } else {
                        #expect(ack.read == current, "counter \(name): worker \(ack.worker) read version \(version) wrongly")
                    }
                    let expected = Self.expectedRow(after: ack, previous: current, policy: policy)
                    #expect(ack.saved == expected, "counter \(name): worker \(ack.worker) round \(ack.round) (\(policy))")
                    current = expected
                    version += 1
                    history[version] = current
                }
                // What the store holds is the last acknowledged save's row, at 1 + the committed updates.
                #expect(row[1] == String(version), "counter \(name): Z_OPT")
                #expect(row[2...].compactMap { Int64($0) } == current, "counter \(name): values")
                if policy == "error" || policy == "rollback" {
                    // Every increment written is in the total.
                    let increments = written.map { [1, 10, 100, 1000][$0.worker] as Int64 }.reduce(0, +)
                    #expect(Int64(row[2]) == increments, "counter \(name): total")
                }
                if policy == "error" {
                    // Refresh and retry: every round of every worker is in, 8 × (1 + 10 + 100 + 1000).
                    #expect(Int64(row[2]) == Int64(Self.rounds) * 1111, "counter \(name): total")
                    #expect(lost.isEmpty)
                }
                if policy == "rollback" {
                    policyConflicts += lost.count
                    // A dropped save's counter took the store's values: a row some other save wrote after its read.
                    for ack in lost {
                        #expect(
                            history.contains { $0.key > ack.readVersion && $0.value == ack.saved },
                            "counter \(name): worker \(ack.worker) round \(ack.round) lost its changes but holds \(ack.saved)")
                    }
                } else {
                    #expect(lost.isEmpty, "counter \(name): changes dropped under \(policy)")
                }
            }
            // Concurrent inserts: distinct keys, every acknowledged one stored under its name, Z_MAX above them all.
            let entries = try PostgresContextTests.rows(connection, "SELECT \"Z_PK\", \"ZNAME\" FROM \"ZENTRY\" ORDER BY \"Z_PK\"")
            let acknowledged = reports.inserts.sorted { $0.key < $1.key }
            #expect(acknowledged.count == Self.workers * Self.rounds)
            #expect(Set(acknowledged.map(\.key)).count == acknowledged.count, "two inserts got one key")
            #expect(entries.map { $0[0] } == acknowledged.map { String($0.key) })
            #expect(entries.map { $0[1] } == acknowledged.map { "w\($0.worker) r\($0.round)" })
            let maximum = try PostgresContextTests.rows(
                connection, "SELECT \"Z_MAX\" >= (SELECT MAX(\"Z_PK\") FROM \"ZENTRY\") FROM \"Z_PRIMARYKEY\" WHERE \"Z_NAME\" = 'Entry'")
            #expect(maximum == [["bool(true)"]])
            print(
                "PostgresConcurrencyTests \(policy): \(Self.workers) workers × \(Self.rounds) rounds × \(Self.counters.count) counters, "
                    + "\(policyConflicts) conflicts, \(String(format: "%.1f", Date().timeIntervalSince(started))) s")
        }
    }
    /// Whether a backend of the cluster is in `pg_sleep` (the paused save below).
    static func someoneSleeps(_ connection: PostgresConnection) throws -> Bool {
        let result = try connection.query("SELECT count(*) FROM pg_stat_activity WHERE wait_event = 'PgSleep'")
        return try result.int64(row: 0, column: 0) ?? 0 > 0
    }

    @Test("a conflict a merge policy resolved cannot change again before the save's UPDATE: the rows read are locked")
    func resolvedConflictStaysResolved() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cdqi-pg-lock-" + UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let model = try ModelLoader().load(url: try Self.writeModel(in: folder)).model
        try PostgresContextTests.withSchema { url, connection in
            let setup = ManagedObjectContext(coordinator: try PostgresContextTests.coordinator(model, url))
            _ = try ContextTestSupport.insert(setup, "Counter", ["name": "c0"])
            try setup.save()
            // Mine reads version 1; another context then saves w1 = 2 (version 2).
            let mine = ManagedObjectContext(coordinator: try PostgresContextTests.coordinator(model, url))
            mine.mergePolicy = .mergeByPropertyObjectTrump
            let counter = try #require(try mine.fetch(FetchRequest(entityName: "Counter")).first)
            let theirs = ManagedObjectContext(coordinator: try PostgresContextTests.coordinator(model, url))
            try #require(try theirs.fetch(FetchRequest(entityName: "Counter")).first).setValue(Int64(2), forKey: "w1")
            try theirs.save()
            // My save's first UPDATE finds version 2 (stale); its second run reads the row, merges, and its
            // UPDATE pauses 1 s before scanning (a statement trigger), while a third writer sets w3 = 7.
            try connection.execute(
                """
                CREATE SEQUENCE "cdqi_updates";
                CREATE FUNCTION "cdqi_pause_second_update"() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    IF nextval('cdqi_updates') = 2 THEN PERFORM pg_sleep(1); END IF;
                    RETURN NULL;
                END $$;
                CREATE TRIGGER "cdqi_pause" BEFORE UPDATE ON "ZCOUNTER" FOR EACH STATEMENT EXECUTE FUNCTION "cdqi_pause_second_update"();
                """)
            let finished = DispatchSemaphore(value: 0)
            let outcome = PostgresSaveErrorTests.Outcome()
            let third = Thread {
                defer { finished.signal() }
                do {
                    let connection = try PostgresConnection(url: url)
                    let deadline = Date().addingTimeInterval(60)
                    while Date() < deadline, try !Self.someoneSleeps(connection) { Thread.sleep(forTimeInterval: 0.005) }
                    outcome.set(sawWaiter: try Self.someoneSleeps(connection))
                    try connection.query("UPDATE \"ZCOUNTER\" SET \"ZW3\" = 7, \"Z_OPT\" = \"Z_OPT\" + 1 WHERE \"ZNAME\" = 'c0'")
                } catch {
                    outcome.set(error: "\(error)")
                }
            }
            third.start()
            try counter.setValue(Int64(1), forKey: "total")
            try counter.setValue(Int64(1), forKey: "w0")
            var failure: (any Error)?
            do {
                try mine.save()
            } catch {
                failure = error
            }
            finished.wait()
            #expect(outcome.error == nil)
            #expect(outcome.sawWaiter, "the save did not pause")
            // Without the lock the third writer's commit would make my UPDATE find version 3, a conflict
            // the policy cannot resolve any more.
            #expect(failure == nil, "\(String(describing: failure))")
            // Mine: total 1, w0 1, their w1 2 kept (version 3); then the third writer's w3 7 (version 4).
            #expect(counter.snapshotVersion == 3)
            #expect(
                try PostgresContextTests.rows(
                    connection, "SELECT \"Z_OPT\", \"ZTOTAL\", \"ZW0\", \"ZW1\", \"ZW2\", \"ZW3\" FROM \"ZCOUNTER\"")
                    == [["4", "1", "1", "2", "0", "7"]])
        }
    }
}
