import CDQIStore
import Foundation
import Testing

@testable import CDQIModel

/// `cdqi query` and `cdqi export` only read a store: the SHA-256 of the main file and of each sidecar
/// is the same before and after a successful query, a refused one and an export, on a WAL store left
/// with its `-wal` and `-shm` by a killed writer (an app's store as Apple's Core Data leaves it) and on
/// a rollback-journal store (issue 14, item 3).
@Suite(.serialized) struct ReadOnlyCommandTests {
    static let company = CommandRunner.packageRoot.appendingPathComponent("Fixtures/Company.xcdatamodeld").path
    static let developers = CommandRunner.packageRoot.appendingPathComponent("Fixtures/Developers.xcdatamodeld").path

    /// The test executable's sibling `cdqi-crash-writer` (the test target depends on it).
    private static func crashWriter() throws -> URL {
        let binary = try CommandRunner.binary().deletingLastPathComponent().appendingPathComponent("cdqi-crash-writer")
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            throw CommandRunner.Failure(description: "no cdqi-crash-writer beside \(binary.deletingLastPathComponent().path)")
        }
        return binary
    }

    /// SHA-256 of the store and of each sidecar that exists, by suffix ("" for the main file).
    private static func hashes(_ store: String) throws -> [String: [UInt8]] {
        var result: [String: [UInt8]] = [:]
        for suffix in ["", "-wal", "-shm", "-journal"] where FileManager.default.fileExists(atPath: store + suffix) {
            result[suffix] = SHA2.sha256(Array(try Data(contentsOf: URL(fileURLWithPath: store + suffix))))
        }
        return result
    }

    /// Runs a successful query, a refused one (another model's store) and an export, checking the
    /// files after each.
    private func expectUnchanged(_ store: String, in folder: TemporaryFolder, sidecars: Set<String>) throws {
        let before = try Self.hashes(store)
        #expect(Set(before.keys) == sidecars.union([""]))
        let count = try CommandRunner.run(["query", Self.company, store, "--entity", "Employee", "--count"])
        #expect(count.status == 0, "\(count.standardError)")
        #expect((Int(count.standardOutput.dropLast()) ?? 0) > 0)
        #expect(try Self.hashes(store) == before, "a query changed the store")

        let refused = try CommandRunner.run(["query", Self.developers, store, "--entity", "Developer"])
        #expect(refused.status == 1)
        #expect(refused.standardError.contains("written for a different model"))
        #expect(try Self.hashes(store) == before, "a refused query changed the store")

        let output = folder.url.appendingPathComponent("export-\(UUID().uuidString).json").path
        let export = try CommandRunner.run(["export", Self.company, store, "-o", output])
        #expect(export.status == 0, "\(export.standardError)")
        #expect(try Self.hashes(store) == before, "an export changed the store")
    }

    @Test("a WAL store with -wal and -shm left by a killed writer")
    func walStore() throws {
        let folder = try TemporaryFolder()
        let store = folder.url.appendingPathComponent("wal.sqlite").path
        let acks = folder.url.appendingPathComponent("acks")
        _ = FileManager.default.createFile(atPath: acks.path, contents: nil)
        let writer = Process()
        writer.executableURL = try Self.crashWriter()
        writer.arguments = [Self.company, store, "1"]
        writer.standardOutput = try FileHandle(forWritingTo: acks)
        writer.standardError = FileHandle.nullDevice
        try writer.run()
        // Three saves acknowledged, then killed as an app would be: the log is not checkpointed.
        let deadline = Date().addingTimeInterval(30)
        while writer.isRunning, Date() < deadline,
            String(decoding: (try? Data(contentsOf: acks)) ?? Data(), as: UTF8.self).split(separator: "\n").count < 3
        {
            Thread.sleep(forTimeInterval: 0.01)
        }
        kill(writer.processIdentifier, SIGKILL)
        writer.waitUntilExit()
        let walSize = (try FileManager.default.attributesOfItem(atPath: store + "-wal")[.size] as? Int) ?? 0
        #expect(walSize > 0)
        // The first reader after the crash rebuilds the -shm index and takes a read mark in it: that
        // is SQLite's shared memory, written by any reader. Settle it with one read here, so that the
        // comparison below sees whether our commands change the data (main file, log) or the sidecars.
        do {
            let reader = try SQLiteConnection(path: store, mode: .readOnly)
            let statement = try reader.prepareUncached("SELECT COUNT(*) FROM ZEMPLOYEE")
            #expect(try statement.step())
        }
        try expectUnchanged(store, in: folder, sidecars: ["-wal", "-shm"])
    }

    @Test("a rollback-journal store")
    func journalStore() throws {
        let folder = try TemporaryFolder()
        let store = folder.url.appendingPathComponent("journal.sqlite").path
        let document = folder.url.appendingPathComponent("seed.json")
        try Data(#"{"Employee": [{"_id": "a", "firstName": "A", "lastName": "A"}]}"#.utf8).write(to: document)
        let imported = try CommandRunner.run(["import", Self.company, store, document.path])
        #expect(imported.status == 0, "\(imported.standardError)")
        do {
            let connection = try SQLiteConnection(path: store, mode: .readWrite)
            try connection.execute("PRAGMA journal_mode = DELETE")
        }
        try expectUnchanged(store, in: folder, sidecars: [])
        // Still a rollback-journal file: bytes 18 and 19 of the header are 1 (2 would be WAL).
        let header = try Data(contentsOf: URL(fileURLWithPath: store)).prefix(20)
        #expect(Array(header.suffix(2)) == [1, 1])
    }
}
