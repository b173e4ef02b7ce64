import CDQIModel
import CDQIStore
import Foundation
import Testing

/// Every consecutive version pair of every corpus bundle with several versions: a fresh store of the
/// older version either migrates to a store with the newer version's hashes and a fresh store's layout,
/// or is refused with the changes named and the file unchanged. It migrates about 200 stores (a minute
/// alone, several under load), so it runs when `CDQI_MIGRATION_SWEEP=1`.
@Suite(
    "Lightweight migration: corpus version pairs",
    .enabled(if: StoreTestSupport.corpus != nil, StoreTestSupport.corpusAbsent),
    .enabled(
        if: ProcessInfo.processInfo.environment["CDQI_MIGRATION_SWEEP"] == "1",
        "set CDQI_MIGRATION_SWEEP=1 to migrate every corpus version pair (slow)"))
struct CorpusVersionPairTests {
    struct Outcome {
        var migrated: [String] = []
        var refused: [String: [String]] = [:]
    }

    static func sweep() throws -> Outcome {
        let corpus = try #require(StoreTestSupport.corpus)
        let models = corpus.appendingPathComponent("models")
        var outcome = Outcome()
        let (folder, cleanUp) = try StoreTestSupport.temporaryFolder()
        defer { cleanUp() }
        for name in try FileManager.default.contentsOfDirectory(atPath: models.path).sorted() where name.hasSuffix(".xcdatamodeld") {
            guard let bundle = try? LoadedBundle(url: models.appendingPathComponent(name)), bundle.versions.count > 1 else { continue }
            for (older, newer) in zip(bundle.versions, bundle.versions.dropFirst()) {
                let label = "\(name): \(older.model.versionName ?? "") → \(newer.model.versionName ?? "")"
                let url = folder.appendingPathComponent("\(UUID().uuidString).sqlite")
                _ = try SQLiteStore(model: older.model, url: url)
                let plan = try bundle.migrationPlan(forStoreAt: url, to: newer.model.versionName)
                if plan.isAlreadyCompatible { continue }
                if !plan.refusals.isEmpty {
                    let before = MigrationTestSupport.bytes(of: url)
                    #expect(throws: MigrationError.self, "\(label)") {
                        try StoreMigration.migrateStore(at: url, from: older.model, to: newer.model)
                    }
                    #expect(MigrationTestSupport.bytes(of: url) == before, "\(label)")
                    outcome.refused[label] = plan.refusals.map(\.description)
                    continue
                }
                do {
                    try StoreMigration.migrateStore(at: url, from: older.model, to: newer.model)
                } catch {
                    Issue.record("\(label): \(error)")
                    continue
                }
                #expect(try StoreMetadata.read(from: url).isCompatible(with: newer.model), "\(label)")
                let fresh = folder.appendingPathComponent("fresh-\(UUID().uuidString).sqlite")
                _ = try SQLiteStore(model: newer.model, url: fresh)
                #expect(try MigrationTestSupport.schema(of: url) == MigrationTestSupport.schema(of: fresh), "\(label)")
                do {
                    _ = try PersistentContainer(model: newer.model, url: url)
                } catch {
                    Issue.record("\(label): the migrated store does not open: \(error)")
                    continue
                }
                outcome.migrated.append(label)
            }
        }
        return outcome
    }

    @Test("each pair migrates like a fresh store of the newer version, or is refused naming its changes")
    func pairs() throws {
        let outcome = try Self.sweep()
        // Cases of the reference's test list (coredata-migration.md §6).
        #expect(outcome.migrated.contains("brave__brave-ios__Model.xcdatamodeld: Model10 → Model11"))  // T4: Integer 16 → 32, entities inserted
        #expect(outcome.migrated.contains("objcio__core-data__Moody.xcdatamodeld: Moody → Moody 2"))  // T2: rename, required with default
        let xcs = outcome.refused["richardpiazza__XCServerCoreData__XCServerCoreData.xcdatamodeld: XCServerCoreData1.2.0 → XCServerCoreData2.0.0"]
        #expect(xcs?.contains { $0.hasPrefix("change the type of Integration.endedTime from String to Date") } == true)  // T9
        let mastodon = outcome.refused["mastodon__mastodon-ios__CoreData.xcdatamodeld: CoreData 2 → CoreData 3"]
        #expect(mastodon?.contains { $0.hasPrefix("turn Status.mentions from an attribute into a relationship or back") } == true)
        #expect(outcome.migrated.count + outcome.refused.count > 150)
        print("corpus pairs: \(outcome.migrated.count) migrated, \(outcome.refused.count) refused")
        for (label, changes) in outcome.refused.sorted(by: { $0.key < $1.key }) {
            print("refused \(label): \(changes.joined(separator: "; "))")
        }
    }
}
