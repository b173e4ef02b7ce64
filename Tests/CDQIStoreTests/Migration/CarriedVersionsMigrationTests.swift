import CDQIModel
import CDQIStore
import Foundation
import Testing

/// Issue 18: a generated model that carries its earlier versions (`VersionedGeneratedModel`, written by
/// hand here as `cdqi` writes it) migrates a store any of them wrote when the container opens, with no
/// bundle: straight when the change can be inferred, else through each version in turn.
///
/// "Notes": `Note` with `title` and `code` (String, optional). "Notes 2": `title` renamed `heading`
/// (renaming identifier), `code` removed. "Notes 3": `code` back as an Integer 64, and `pinned` (Boolean,
/// required, default NO) added. Straight from "Notes" to "Notes 3", `code` would change from String to
/// Integer 64, which is not inferable: that store goes through "Notes 2".
@Suite("Lightweight migration: versions carried by a generated model")
struct CarriedVersionsMigrationTests {
    static func notes(_ versionName: String, heading: Bool, code: AttributeType?, pinned: Bool) -> ManagedObjectModel {
        var note = EntityDescription(name: "Note")
        if heading {
            var attribute = AttributeDescription(name: "heading", type: .string, isOptional: true)
            attribute.renamingIdentifier = "title"
            note.attributes.append(attribute)
        } else {
            note.attributes.append(AttributeDescription(name: "title", type: .string, isOptional: true))
        }
        if let code { note.attributes.append(AttributeDescription(name: "code", type: code, isOptional: true)) }
        if pinned {
            var attribute = AttributeDescription(name: "pinned", type: .boolean)
            attribute.defaultValueString = "NO"
            note.attributes.append(attribute)
        }
        var model = ManagedObjectModel(entities: [note])
        model.versionName = versionName
        return model
    }

    enum NotesModel: VersionedGeneratedModel {
        static let versions = [
            CarriedVersionsMigrationTests.notes("Notes", heading: false, code: .string, pinned: false),
            CarriedVersionsMigrationTests.notes("Notes 2", heading: true, code: nil, pinned: false),
            model,
        ]
        static let model = CarriedVersionsMigrationTests.notes("Notes 3", heading: true, code: .integer64, pinned: true)
        static var entityClasses: [(entityName: String, objectClass: ManagedObject.Type)] { [] }
    }

    /// A store of `version` holding one note per value of its first attribute (`title` or `heading`).
    static func store(of version: ManagedObjectModel, notes: [(String, String?)], in folder: URL) throws -> URL {
        let url = folder.appendingPathComponent("Notes.sqlite")
        let container = try PersistentContainer(model: version, url: url)
        let context = container.newContext()
        let firstName = version.entities[0].attributes[0].name
        for (text, code) in notes {
            let note = try context.insertNewObject(forEntityName: "Note")
            try note.setValue(text, forKey: firstName)
            if version.entities[0].attributes.contains(where: { $0.name == "code" }) { try note.setValue(code, forKey: "code") }
        }
        _ = try context.save()
        return url
    }

    @Test("a store of the first version goes through the second, and opens at the third")
    func firstVersionProgressive() throws {
        let (folder, cleanUp) = try StoreTestSupport.temporaryFolder()
        defer { cleanUp() }
        let url = try Self.store(of: NotesModel.versions[0], notes: [("groceries", "x1"), ("ideas", nil)], in: folder)
        let plan = try NotesModel.migrationPlan(forStoreAt: url)
        #expect(plan.steps.map { "\($0.sourceVersion ?? "") → \($0.destinationVersion ?? "")" } == ["Notes → Notes 2", "Notes 2 → Notes 3"])
        let container = try PersistentContainer(model: NotesModel.self, url: url)
        #expect(container.coordinator.model == NotesModel.model)
        // `code` was dropped by "Notes 2" and came back empty; `pinned` takes its default, NO (0).
        #expect(
            try MigrationTestSupport.rows("SELECT ZHEADING, IFNULL(ZCODE, 'NULL'), ZPINNED FROM ZNOTE ORDER BY Z_PK", in: url) == [
                ["groceries", "NULL", "0"], ["ideas", "NULL", "0"],
            ])
        let context = container.newContext()
        let notes = try context.fetch(FetchRequest(entityName: "Note"))
        #expect(Set(try notes.map { try $0.value(forKey: "heading") as? String }) == ["groceries", "ideas"])
    }

    @Test("a store of the second version migrates straight to the third")
    func secondVersionStraight() throws {
        let (folder, cleanUp) = try StoreTestSupport.temporaryFolder()
        defer { cleanUp() }
        let url = try Self.store(of: NotesModel.versions[1], notes: [("travel", nil)], in: folder)
        let plan = try NotesModel.migrationPlan(forStoreAt: url)
        #expect(plan.steps.map { "\($0.sourceVersion ?? "") → \($0.destinationVersion ?? "")" } == ["Notes 2 → Notes 3"])
        _ = try PersistentContainer(model: NotesModel.self, url: url)
        #expect(try MigrationTestSupport.rows("SELECT ZHEADING, IFNULL(ZCODE, 'NULL'), ZPINNED FROM ZNOTE", in: url) == [["travel", "NULL", "0"]])
        #expect(try StoreMetadata.read(from: url).isCompatible(with: NotesModel.model))
    }

    @Test("a new store, and an in-memory one, are created at the current version")
    func newStores() throws {
        let (folder, cleanUp) = try StoreTestSupport.temporaryFolder()
        defer { cleanUp() }
        let url = folder.appendingPathComponent("New.sqlite")
        _ = try PersistentContainer(model: NotesModel.self, url: url)
        #expect(try StoreMetadata.read(from: url).isCompatible(with: NotesModel.model))
        let memory = try PersistentContainer(model: NotesModel.self, url: nil)
        #expect(memory.coordinator.model == NotesModel.model)
    }
}
