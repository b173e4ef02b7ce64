import CDQIModel
import CDQIPredicate
import CDQIStore
import Foundation
import Testing

/// Tier A of issue 15's regime (finding 9): malformed stores, each a mutant of one sound store, opened
/// by `cdqi query`, `cdqi export`, `cdqi import` and by a context in this process. Never a crash or a
/// hang: always rows or a typed error (`cdqi: error: …`, exit 1 or 64); query and export never change
/// the file, and a refused import leaves it byte for byte as it was.
@Suite(.serialized) struct MalformedStoreTests {
    static let modelPath = CommandRunner.packageRoot.appendingPathComponent("Fixtures/Company.xcdatamodeld").path
    static let pageSize = 4096

    /// One way to damage a store.
    struct Mutant: Sendable, CustomStringConvertible {
        enum Change: Sendable {
            /// Bytes of the file: its content → the new content.
            case bytes(@Sendable ([UInt8]) -> [UInt8])
            /// SQL run on the store through a plain connection (defensive mode off is not needed).
            case sql(String)
        }
        var name: String
        var change: Change
        var description: String { name }
    }

    static func zeroPage(_ page: Int) -> @Sendable ([UInt8]) -> [UInt8] {
        { bytes in
            var bytes = bytes
            let start = (page - 1) * pageSize
            guard start < bytes.count else { return bytes }
            for index in start..<min(bytes.count, start + pageSize) { bytes[index] = 0 }
            return bytes
        }
    }

    static func setBytes(_ offset: Int, _ values: [UInt8]) -> @Sendable ([UInt8]) -> [UInt8] {
        { bytes in
            var bytes = bytes
            for (index, value) in values.enumerated() where offset + index < bytes.count { bytes[offset + index] = value }
            return bytes
        }
    }

    static func truncate(_ length: @escaping @Sendable (Int) -> Int) -> @Sendable ([UInt8]) -> [UInt8] {
        { bytes in Array(bytes.prefix(max(0, length(bytes.count)))) }
    }

    /// Flips `count` random bytes (fixed seed) after the first page.
    static func scramble(seed: UInt64, count: Int) -> @Sendable ([UInt8]) -> [UInt8] {
        { bytes in
            var bytes = bytes
            var state = seed
            for _ in 0..<count {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                let index = pageSize + Int((state >> 33) % UInt64(max(1, bytes.count - pageSize)))
                if index < bytes.count { bytes[index] ^= UInt8(truncatingIfNeeded: state >> 17) | 1 }
            }
            return bytes
        }
    }

    static let mutants: [Mutant] = [
        // Truncation.
        Mutant(name: "truncated to 50 bytes", change: .bytes(truncate { _ in 50 })),
        Mutant(name: "truncated to 100 bytes", change: .bytes(truncate { _ in 100 })),
        Mutant(name: "truncated to one page", change: .bytes(truncate { _ in pageSize })),
        Mutant(name: "truncated to half", change: .bytes(truncate { $0 / 2 / pageSize * pageSize })),
        Mutant(name: "truncated mid-page", change: .bytes(truncate { $0 / 2 + 1000 })),
        Mutant(name: "last page cut off", change: .bytes(truncate { $0 - pageSize })),
        Mutant(name: "last 100 bytes cut off", change: .bytes(truncate { $0 - 100 })),
        // Zeroed pages.
        Mutant(name: "page 1 (header, schema) zeroed", change: .bytes(zeroPage(1))),
        Mutant(name: "page 2 zeroed", change: .bytes(zeroPage(2))),
        Mutant(name: "page 3 zeroed", change: .bytes(zeroPage(3))),
        Mutant(name: "page 5 zeroed", change: .bytes(zeroPage(5))),
        Mutant(name: "page 10 zeroed", change: .bytes(zeroPage(10))),
        Mutant(name: "page 15 zeroed", change: .bytes(zeroPage(15))),
        Mutant(name: "page 20 zeroed", change: .bytes(zeroPage(20))),
        Mutant(
            name: "every page after the first zeroed",
            change: .bytes { bytes in
                bytes.enumerated().map { $0.offset < pageSize ? $0.element : 0 }
            }),
        // Bad headers.
        Mutant(name: "magic string changed", change: .bytes(setBytes(0, Array("SQLite format 9\0".utf8)))),
        Mutant(name: "page size 0", change: .bytes(setBytes(16, [0, 0]))),
        Mutant(name: "page size 1000 (not a power of two)", change: .bytes(setBytes(16, [0x03, 0xE8]))),
        Mutant(name: "page size 512 (wrong)", change: .bytes(setBytes(16, [0x02, 0x00]))),
        Mutant(name: "write version 9", change: .bytes(setBytes(18, [9, 9]))),
        Mutant(name: "reserved space 255", change: .bytes(setBytes(20, [255]))),
        Mutant(name: "payload fractions wrong", change: .bytes(setBytes(21, [10, 99, 1]))),
        Mutant(name: "database size in header huge", change: .bytes(setBytes(28, [0x7F, 0xFF, 0xFF, 0xFF]))),
        Mutant(name: "freelist trunk page bogus", change: .bytes(setBytes(32, [0x00, 0x0F, 0xFF, 0xFF, 0, 0, 0, 9]))),
        Mutant(name: "schema format 9", change: .bytes(setBytes(44, [0, 0, 0, 9]))),
        Mutant(name: "text encoding 9", change: .bytes(setBytes(56, [0, 0, 0, 9]))),
        Mutant(name: "text encoding UTF-16le", change: .bytes(setBytes(56, [0, 0, 0, 2]))),
        Mutant(name: "schema page (1) B-tree type byte wrong", change: .bytes(setBytes(100, [0x07]))),
        // Random damage, fixed seeds.
        Mutant(name: "8 random bytes flipped (seed 1)", change: .bytes(scramble(seed: 1, count: 8))),
        Mutant(name: "8 random bytes flipped (seed 2)", change: .bytes(scramble(seed: 2, count: 8))),
        Mutant(name: "64 random bytes flipped (seed 3)", change: .bytes(scramble(seed: 3, count: 64))),
        Mutant(name: "64 random bytes flipped (seed 4)", change: .bytes(scramble(seed: 4, count: 64))),
        Mutant(name: "512 random bytes flipped (seed 5)", change: .bytes(scramble(seed: 5, count: 512))),
        Mutant(name: "garbage appended", change: .bytes { $0 + [UInt8](repeating: 0xA5, count: 3000) }),
        Mutant(name: "not a database (text)", change: .bytes { _ in Array(String(repeating: "not a store\n", count: 800).utf8) }),
        // Bad Z_METADATA.
        Mutant(name: "Z_METADATA row deleted", change: .sql("DELETE FROM Z_METADATA")),
        Mutant(name: "Z_PLIST garbage bytes", change: .sql("UPDATE Z_METADATA SET Z_PLIST = x'00112233445566778899'")),
        Mutant(name: "Z_PLIST NULL", change: .sql("UPDATE Z_METADATA SET Z_PLIST = NULL")),
        Mutant(name: "Z_PLIST truncated", change: .sql("UPDATE Z_METADATA SET Z_PLIST = substr(Z_PLIST, 1, length(Z_PLIST) / 2)")),
        Mutant(name: "Z_PLIST text, not a plist", change: .sql("UPDATE Z_METADATA SET Z_PLIST = 'hello'")),
        Mutant(
            name: "Z_PLIST an XML plist of the wrong shape",
            change: .sql(
                """
                UPDATE Z_METADATA SET Z_PLIST = CAST('<?xml version="1.0"?><plist version="1.0"><array><string>x</string></array></plist>' AS BLOB)
                """)),
        Mutant(name: "Z_UUID NULL", change: .sql("UPDATE Z_METADATA SET Z_UUID = NULL")),
        Mutant(name: "Z_METADATA dropped", change: .sql("DROP TABLE Z_METADATA")),
        // Bookkeeping and tables.
        Mutant(name: "Z_PRIMARYKEY dropped", change: .sql("DROP TABLE Z_PRIMARYKEY")),
        Mutant(name: "ZEMPLOYEE dropped", change: .sql("DROP TABLE ZEMPLOYEE")),
        Mutant(name: "column ZNICKNAME dropped", change: .sql("ALTER TABLE ZEMPLOYEE DROP COLUMN ZNICKNAME")),
        Mutant(name: "extra column", change: .sql("ALTER TABLE ZEMPLOYEE ADD COLUMN ZSURPRISE TEXT DEFAULT 'x'")),
        Mutant(name: "extra table", change: .sql("CREATE TABLE ZEXTRA (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER)")),
        Mutant(name: "indexes dropped", change: .sql("DROP INDEX ZEMPLOYEE_ZDEPARTMENT_INDEX; DROP INDEX Z_Employee_byLastName")),
        Mutant(name: "Employee's Z_PRIMARYKEY row deleted", change: .sql("DELETE FROM Z_PRIMARYKEY WHERE Z_NAME = 'Employee'")),
        Mutant(name: "Employee's Z_PRIMARYKEY row renamed", change: .sql("UPDATE Z_PRIMARYKEY SET Z_NAME = 'Ghost' WHERE Z_NAME = 'Employee'")),
        Mutant(name: "Z_MAX Int64.max", change: .sql("UPDATE Z_PRIMARYKEY SET Z_MAX = 9223372036854775807")),
        Mutant(name: "Z_MAX text", change: .sql("UPDATE Z_PRIMARYKEY SET Z_MAX = 'many'")),
        Mutant(name: "Z_MAX below the largest key", change: .sql("UPDATE Z_PRIMARYKEY SET Z_MAX = 1")),
        Mutant(name: "Z_MAX negative", change: .sql("UPDATE Z_PRIMARYKEY SET Z_MAX = -5")),
        // Rows: entity numbers, wrong column types, dangling references.
        Mutant(name: "Z_ENT 999", change: .sql("UPDATE ZEMPLOYEE SET Z_ENT = 999 WHERE Z_PK = 7")),
        Mutant(name: "Z_ENT NULL", change: .sql("UPDATE ZEMPLOYEE SET Z_ENT = NULL WHERE Z_PK = 7")),
        Mutant(name: "Z_ENT text", change: .sql("UPDATE ZEMPLOYEE SET Z_ENT = 'Employee' WHERE Z_PK = 7")),
        Mutant(name: "Z_ENT of another table's entity", change: .sql("UPDATE ZEMPLOYEE SET Z_ENT = 1 WHERE Z_PK = 7")),
        Mutant(name: "Z_OPT text", change: .sql("UPDATE ZEMPLOYEE SET Z_OPT = 'v' WHERE Z_PK = 7")),
        Mutant(name: "Z_OPT NULL", change: .sql("UPDATE ZEMPLOYEE SET Z_OPT = NULL")),
        Mutant(name: "integer attribute text", change: .sql("UPDATE ZEMPLOYEE SET ZSALARY = 'lots' WHERE Z_PK = 3")),
        Mutant(name: "integer attribute real", change: .sql("UPDATE ZEMPLOYEE SET ZSALARY = 1.5 WHERE Z_PK = 3")),
        Mutant(name: "integer attribute out of Int32 range", change: .sql("UPDATE ZEMPLOYEE SET ZSALARY = 9223372036854775807 WHERE Z_PK = 3")),
        Mutant(name: "integer attribute blob", change: .sql("UPDATE ZEMPLOYEE SET ZSALARY = x'DEADBEEF' WHERE Z_PK = 3")),
        Mutant(name: "string attribute integer", change: .sql("UPDATE ZEMPLOYEE SET ZFIRSTNAME = 42 WHERE Z_PK = 3")),
        Mutant(name: "string attribute invalid UTF-8 blob", change: .sql("UPDATE ZEMPLOYEE SET ZFIRSTNAME = CAST(x'C328FF' AS TEXT) WHERE Z_PK = 3")),
        Mutant(name: "required string NULL", change: .sql("UPDATE ZEMPLOYEE SET ZLASTNAME = NULL WHERE Z_PK = 3")),
        Mutant(name: "date attribute text", change: .sql("UPDATE ZEMPLOYEE SET ZHIREDATE = 'yesterday' WHERE Z_PK = 3")),
        Mutant(name: "date attribute huge", change: .sql("UPDATE ZEMPLOYEE SET ZHIREDATE = 1e300 WHERE Z_PK = 3")),
        Mutant(name: "decimal attribute text", change: .sql("UPDATE ZDEPARTMENT SET ZBUDGET = 'a lot' WHERE Z_PK = 1")),
        Mutant(name: "dangling to-one", change: .sql("UPDATE ZEMPLOYEE SET ZDEPARTMENT = 99999 WHERE Z_PK = 3")),
        Mutant(name: "to-one text", change: .sql("UPDATE ZEMPLOYEE SET ZDEPARTMENT = 'sales' WHERE Z_PK = 3")),
        Mutant(name: "to-one negative", change: .sql("UPDATE ZEMPLOYEE SET ZDEPARTMENT = -1 WHERE Z_PK = 3")),
        Mutant(name: "a 2 MB string", change: .sql("UPDATE ZEMPLOYEE SET ZNICKNAME = printf('%.*c', 2000000, 'x') WHERE Z_PK = 3")),
    ]

    /// A sound store (WAL, closed, no sidecars) of 5 Departments and 300 Employees with long nick
    /// names: about 25 pages.
    private static func baseStore(in folder: TemporaryFolder) throws -> URL {
        let departments = (0..<5).map { #"{"_id": "d\#($0)", "name": "Department \#($0)", "budget": "1000.5"}"# }
        let employees = (0..<300).map {
            #"{"_id": "e\#($0)", "firstName": "F\#($0)", "lastName": "L\#($0)", "salary": \#($0 * 100), "hireDate": "2020-01-01T00:00:00Z", "nickName": "\#(String(repeating: "n", count: 200))", "department": "d\#($0 % 5)"}"#
        }
        let document = folder.url.appendingPathComponent("base.json")
        try Data(#"{"Department": [\#(departments.joined(separator: ", "))], "Employee": [\#(employees.joined(separator: ", "))]}"#.utf8)
            .write(to: document)
        let store = folder.url.appendingPathComponent("base.sqlite")
        let output = try CommandRunner.run(["import", modelPath, store.path, document.path])
        #expect(output.status == 0, "\(output.standardError)")
        return store
    }

    /// A copy of the base store with the mutant applied.
    private static func mutate(_ base: URL, _ mutant: Mutant, into url: URL) throws {
        try? FileManager.default.removeItem(at: url)
        switch mutant.change {
        case .bytes(let change):
            try Data(change(Array(try Data(contentsOf: base)))).write(to: url)
        case .sql(let sql):
            try FileManager.default.copyItem(at: base, to: url)
            // The change lands in the log; closing the connection checkpoints it into the file, which
            // stays a WAL store like the base one, with no sidecars.
            let connection = try SQLiteConnection(path: url.path, mode: .readWrite)
            try connection.execute(sql)
        }
    }

    /// The bytes that hold data: the main file, and the log when it is not empty.
    private static func data(_ url: URL) -> [Data] {
        [url.path, url.path + "-wal", url.path + "-journal"].compactMap { FileManager.default.contents(atPath: $0) }.filter { !$0.isEmpty }
    }

    private static func expectTypedOutcome(_ output: CommandRunner.Output, _ what: String) {
        #expect(!output.crashed, "\(what) crashed: \(output.standardError)")
        #expect([0, 1, 64].contains(output.status), "\(what): exit \(output.status)")
        if output.status != 0 {
            #expect(output.standardError.contains("error: "), "\(what): \(output.standardError)")
            #expect(!output.standardError.contains("Fatal error"), "\(what): \(output.standardError)")
        }
    }

    @Test("every mutant through query, export, import and a context: rows or a typed error, files unchanged when refused")
    func mutants() throws {
        #expect(Self.mutants.count >= 50)
        let folder = try TemporaryFolder()
        let base = try Self.baseStore(in: folder)
        let document = folder.url.appendingPathComponent("one.json")
        try Data(#"{"Employee": [{"_id": "n", "firstName": "N", "lastName": "N", "salary": 1}]}"#.utf8).write(to: document)
        let model = try ModelLoader().load(url: URL(fileURLWithPath: Self.modelPath)).model
        var outcomes: [String: Int] = [:]
        for (index, mutant) in Self.mutants.enumerated() {
            let store = folder.url.appendingPathComponent("m\(index).sqlite")
            try Self.mutate(base, mutant, into: store)
            let before = Self.data(store)

            let query = try CommandRunner.run(["query", Self.modelPath, store.path, "--entity", "Employee", "--order", "salary"])
            Self.expectTypedOutcome(query, "\(mutant): query")
            #expect(Self.data(store) == before, "\(mutant): query changed the store")
            // Rows read and rows counted agree (a row is never skipped without a word).
            let count = try CommandRunner.run(["query", Self.modelPath, store.path, "--entity", "Employee", "--count"])
            Self.expectTypedOutcome(count, "\(mutant): count")
            if query.status == 0, count.status == 0 {
                let rows = query.standardOutput.split(separator: "\n").count - 2
                #expect("\(rows)\n" == count.standardOutput, "\(mutant): \(rows) rows read, \(count.standardOutput) counted")
            }
            let export = try CommandRunner.run(["export", Self.modelPath, store.path])
            Self.expectTypedOutcome(export, "\(mutant): export")
            #expect(Self.data(store) == before, "\(mutant): export changed the store")
            if query.status == 0 && export.status == 0 { outcomes["read", default: 0] += 1 }

            let imported = try CommandRunner.run(["import", Self.modelPath, store.path, document.path])
            Self.expectTypedOutcome(imported, "\(mutant): import")
            if imported.status != 0 {
                #expect(Self.data(store) == before, "\(mutant): a refused import changed the store")
                outcomes["import refused", default: 0] += 1
            }

            // A context in this process, on a fresh copy.
            try Self.mutate(base, mutant, into: store)
            let copy = Self.data(store)
            do {
                let coordinator = try PersistentStoreCoordinator(model: model, url: store)
                let context = ManagedObjectContext(coordinator: coordinator)
                for entity in ["Department", "Employee"] {
                    for object in try context.fetch(FetchRequest(entityName: entity)) {
                        for key in model.entity(named: entity).map({ model.allAttributes(of: $0).map(\.name) }) ?? [] {
                            _ = try object.storedValue(forKey: key)
                        }
                        if entity == "Employee" { _ = try object.object(forKey: "department") }
                    }
                }
                let employee = try context.insertNewObject(forEntityName: "Employee")
                try employee.setValue("C", forKey: "firstName")
                try employee.setValue("C", forKey: "lastName")
                try context.save()
                outcomes["context saved", default: 0] += 1
            } catch is StoreError {
                #expect(Self.data(store) == copy, "\(mutant): a refused open changed the store")
            } catch is ContextError {
            } catch is ManagedObjectError {
            } catch is PredicateSQLError {
            } catch is SQLiteError {
                // A raw SQLite error is typed too, but only for what is not damage.
            } catch {
                Issue.record("\(mutant): context threw an untyped error: \(error)")
            }
        }
        print(
            "malformed stores: \(Self.mutants.count) mutants; read by query and export: \(outcomes["read"] ?? 0); "
                + "import refused: \(outcomes["import refused"] ?? 0); context saved: \(outcomes["context saved"] ?? 0)")
    }
}
