import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `cdqi migrate` killed with SIGKILL at random moments: the store is always either the untouched
/// version-1 store or the finished version-2 store, with every object, and a later run finishes the job.
@Suite struct MigrateKillTests {
    static let trials = 200
    static let books = 2000

    @Test func aKilledMigrationLeavesEitherTheOldOrTheNewStore() throws {
        let folder = try TemporaryFolder()
        let bundle = MigrateCommandTests.bundle
        let seed = folder.url.appendingPathComponent("seed.json")
        let books = (0..<Self.books).map {
            #"{"_id": "b\#($0)", "title": "T\#($0)", "isbn": "\#(String(format: "%010d", $0))", "addedAt": "2001-01-01T00:16:40Z", "shelf": "f"}"#
        }
        try Data((#"{"Shelf": [{"_id": "f", "name": "Fiction"}], "Book": ["# + books.joined(separator: ",") + "]}").utf8)
            .write(to: seed)
        let pristine = folder.url.appendingPathComponent("pristine.sqlite")
        let imported = try CommandRunner.run(["import", bundle, pristine.path, seed.path, "--model-version", "Library"])
        #expect(imported.status == 0, "\(imported.standardError)")

        let store = folder.url.appendingPathComponent("store.sqlite")
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        var outcomes: [String: Int] = [:]
        for trial in 0..<Self.trials {
            for suffix in ["", "-wal", "-shm", "-journal", ".cdqi-migrating", ".cdqi-migrating-wal", ".cdqi-migrating-shm"] {
                try? FileManager.default.removeItem(atPath: store.path + suffix)
            }
            try FileManager.default.copyItem(at: pristine, to: store)
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let delay = UInt32((state >> 33) % 450_000)  // microseconds: process start to past the end
            let process = Process()
            process.executableURL = try CommandRunner.binary()
            process.arguments = ["migrate", bundle, store.path]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            usleep(delay)
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()

            let inspect = try CommandRunner.run(["inspect", store.path, bundle])
            #expect(inspect.status == 0, "trial \(trial): \(inspect.standardError)")
            let text = inspect.standardOutput
            let version = text.contains("version: 'Library 2'\n") ? "Library 2" : text.contains("version: 'Library'\n") ? "Library" : "neither"
            #expect(version != "neither", "trial \(trial) (killed after \(delay) µs): \(text)")
            #expect(text.contains("  Book \(Self.books)\n  Item 0\n"), "trial \(trial): \(text)")
            outcomes[version, default: 0] += 1
            // Every fifth trial: a new run finishes the migration.
            if trial % 5 == 0 {
                let again = try CommandRunner.run(["migrate", bundle, store.path])
                #expect(again.status == 0, "trial \(trial): \(again.standardError)")
                let after = try CommandRunner.run(["inspect", store.path, bundle]).standardOutput
                #expect(after.contains("version: 'Library 2'\n") && after.contains("  Book \(Self.books)\n"), "trial \(trial)")
            }
        }
        // The kills fell both before and after the swap.
        #expect((outcomes["Library"] ?? 0) > 0)
        #expect((outcomes["Library 2"] ?? 0) > 0)
    }
}
