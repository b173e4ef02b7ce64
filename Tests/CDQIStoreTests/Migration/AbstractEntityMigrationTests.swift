import CDQIModel
import CDQIStore
import Foundation
import Testing

/// Issue 18: an entity made abstract while the store holds objects of it. An abstract entity has no
/// objects, so Core Data cannot migrate them: the migration is refused before anything is written, with
/// the entity and the number of its objects. Objects of its sub-entities alone are no obstacle.
///
/// The models, built in code: `Shape` (`label` String, optional) with the sub-entity `Circle`
/// (`radius` Double); version "Shapes 2" makes `Shape` abstract. "Shapes 3 removes" drops `label` and
/// "Shapes 3" adds it back as an Integer 64 and makes `Shape` abstract: straight from "Shapes" that is
/// a String → Integer 64 change, which is not inferable, so the store would go through "Shapes 3
/// removes" first (progressive).
@Suite("Lightweight migration: an entity made abstract")
struct AbstractEntityMigrationTests {
    static func model(_ versionName: String, abstract: Bool, label: AttributeType? = .string) -> ManagedObjectModel {
        var shape = EntityDescription(name: "Shape")
        shape.isAbstract = abstract
        if let label { shape.attributes.append(AttributeDescription(name: "label", type: label, isOptional: true)) }
        var circle = EntityDescription(name: "Circle", parentEntityName: "Shape")
        circle.attributes.append(AttributeDescription(name: "radius", type: .double, isOptional: true))
        var model = ManagedObjectModel(entities: [circle, shape])
        model.versionName = versionName
        return model
    }

    static let original = model("Shapes", abstract: false)
    static let abstract = model("Shapes 2", abstract: true)

    /// A store of "Shapes" with `shapes` plain shapes and `circles` circles.
    static func store(shapes: Int, circles: Int, in folder: URL) throws -> URL {
        let url = folder.appendingPathComponent("Shapes.sqlite")
        let container = try PersistentContainer(model: original, url: url)
        let context = container.newContext()
        for index in 0..<shapes {
            try context.insertNewObject(forEntityName: "Shape").setValue("shape \(index)", forKey: "label")
        }
        for index in 0..<circles {
            let circle = try context.insertNewObject(forEntityName: "Circle")
            try circle.setValue("circle \(index)", forKey: "label")
            try circle.setValue(Double(index) + 0.5, forKey: "radius")
        }
        _ = try context.save()
        return url
    }

    @Test("objects of the entity made abstract: refused naming it and their count, nothing written")
    func refused() throws {
        let (folder, cleanUp) = try StoreTestSupport.temporaryFolder()
        defer { cleanUp() }
        let url = try Self.store(shapes: 2, circles: 1, in: folder)
        let before = MigrationTestSupport.bytes(of: url)
        #expect {
            try StoreMigration.migrateStore(at: url, from: Self.original, to: Self.abstract)
        } throws: { error in
            guard case MigrationError.abstractEntityHasObjects(let store, let entity, let version, let count) = error else { return false }
            return store == url.path && entity == "Shape" && version == "Shapes 2" && count == 2 && (error as? MigrationError)?.code == 134_110
                && "\(error)".contains("entity Shape is abstract in 'Shapes 2', but the store holds 2 object(s) of it")
        }
        #expect(MigrationTestSupport.bytes(of: url) == before)
        #expect(!FileManager.default.fileExists(atPath: url.path + ".cdqi-migrating"))
        #expect(try StoreMetadata.read(from: url).isCompatible(with: Self.original))
    }

    @Test("objects of its sub-entities only: migrated, the circles kept")
    func subentityObjectsMigrate() throws {
        let (folder, cleanUp) = try StoreTestSupport.temporaryFolder()
        defer { cleanUp() }
        let url = try Self.store(shapes: 0, circles: 2, in: folder)
        let report = try StoreMigration.migrateStore(at: url, from: Self.original, to: Self.abstract)
        #expect(report.objectCount == 2)
        #expect(try StoreMetadata.read(from: url).isCompatible(with: Self.abstract))
        // Shape is entity 1 and Circle entity 2 in both versions (depth-first from the root, Shape).
        #expect(
            try MigrationTestSupport.rows("SELECT Z_ENT, ZLABEL, ZRADIUS FROM ZSHAPE ORDER BY Z_PK", in: url) == [
                ["2", "circle 0", "0.5"], ["2", "circle 1", "1.5"],
            ])
    }

    /// Carried versions in a generated-model type written by hand: the chain "Shapes" → "Shapes 3
    /// removes" → "Shapes 3", where the second step makes `Shape` abstract.
    enum ProgressiveShapes: VersionedGeneratedModel {
        static let versions = [
            AbstractEntityMigrationTests.original,
            AbstractEntityMigrationTests.model("Shapes 3 removes", abstract: false, label: nil),
            model,
        ]
        static let model = AbstractEntityMigrationTests.model("Shapes 3", abstract: true, label: .integer64)
        static var entityClasses: [(entityName: String, objectClass: ManagedObject.Type)] { [] }
    }

    @Test("made abstract in the second step of a progressive migration: refused before the first step writes")
    func refusedUpFrontInAProgressiveMigration() throws {
        let (folder, cleanUp) = try StoreTestSupport.temporaryFolder()
        defer { cleanUp() }
        let url = try Self.store(shapes: 3, circles: 1, in: folder)
        let plan = try ProgressiveShapes.migrationPlan(forStoreAt: url)
        #expect(
            plan.steps.map { "\($0.sourceVersion ?? "") → \($0.destinationVersion ?? "")" } == ["Shapes → Shapes 3 removes", "Shapes 3 removes → Shapes 3"])
        let before = MigrationTestSupport.bytes(of: url)
        #expect {
            try PersistentContainer(model: ProgressiveShapes.self, url: url)
        } throws: { error in
            guard case MigrationError.abstractEntityHasObjects(_, let entity, let version, let count) = error else { return false }
            return entity == "Shape" && version == "Shapes 3" && count == 3
        }
        #expect(MigrationTestSupport.bytes(of: url) == before)
        #expect(try StoreMetadata.read(from: url).isCompatible(with: Self.original))
    }
}
