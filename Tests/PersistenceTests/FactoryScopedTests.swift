import CDQIModel
import CDQIStore
import Foundation
import Persistence
import Testing

/// The tests that use the process-wide ``DAOFactory`` and its static configuration, one at a time.
@Suite(.serialized) struct FactoryScopedTests {}

/// A custom DAO with a business method, as the seed text's `MyCustomDAO`.
final class MyCustomDAO: DAO {
    required init(context: ManagedObjectContext) {
        super.init(context: context)
        entityName = "TestEntity"
    }

    /// The objects named `name`.
    func findByName(_ name: String) -> [Any] {
        let criteria = CDSearchCriteria.criteria()
        criteria.addFilter(CDFilter.equals("name", value: name))
        return findAll(criteria)
    }
}

/// Sets the factory up from scratch: the fixture model, a new temporary documents directory, an SQLite
/// store `test.sqlite`, no seed; the stack closed. Returns the documents directory.
@discardableResult
func freshFactory(model: ManagedObjectModel? = FixtureModel.test) throws -> URL {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("persistence-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    DAOFactory.factory().closeStack()
    DAOFactory.factory().errorHandler = nil
    DAOFactory.setModel(model)
    DAOFactory.setModelURL(nil)
    DAOFactory.setDocumentsDirectory(directory)
    DAOFactory.setSeedStoreURL(nil)
    DAOFactory.setStoreOptions(nil)
    DAOFactory.setStorePath("test.sqlite")
    DAOFactory.setStoreType(NSSQLiteStoreType)
    return directory
}

extension FactoryScopedTests {
    @Suite struct DAOFactoryTests {
        @Test func theFactoryIsShared() throws {
            try freshFactory()
            #expect(DAOFactory.factory() === DAOFactory.factory())
            #expect(DAOFactory.storePath() == "test.sqlite")
            #expect(DAOFactory.storeType() == "SQLite")
            DAOFactory.setStoreOptions(["journal_mode": "WAL"])
            #expect(DAOFactory.storeOptions()?.count == 1)
        }

        @Test func theStoreIsCreatedInTheDocumentsDirectory() throws {
            let directory = try freshFactory()
            let factory = DAOFactory.factory()
            #expect(factory.applicationDocumentsDirectory() == directory.path)
            let dao = try #require(factory.createDAO("TestEntity"))
            let object = try #require(dao.insertNewObject())
            try object.setValue("abc", forKey: "name")
            #expect(factory.save())
            #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("test.sqlite").path))
            #expect(factory.managedObjectModel.entities.count == 3)
            #expect(factory.persistentStoreCoordinator.url?.lastPathComponent == "test.sqlite")

            // Reopened from the file, the object is there.
            factory.closeStack()
            #expect(factory.createRuntimeDAO("TestEntity").count() == 1)
            factory.closeStack()
        }

        @Test func theDocumentsDirectoryDefaultsToTheCurrentDirectory() throws {
            try freshFactory()
            DAOFactory.setDocumentsDirectory(nil)
            #expect(
                DAOFactory.factory().applicationDocumentsDirectory()
                    == URL(fileURLWithPath: FileManager.default.currentDirectoryPath).path)
        }

        @Test func theModelIsRequired() throws {
            try freshFactory(model: nil)
            let collector = ErrorCollector()
            let factory = DAOFactory.factory()
            factory.errorHandler = collector.handler
            #expect(factory.managedObjectContext == nil)
            #expect(factory.createDAO("TestEntity") == nil)
            #expect(collector.errors.count == 2)
            #expect(collector.errors.first.map { "\($0)" }?.contains("setModel") == true)
            #expect {
                try factory.tryManagedObjectContext()
            } throws: { error in
                if case PersistenceError.modelNotSet = error { true } else { false }
            }
            factory.errorHandler = nil
        }

        @Test func theModelLoadsFromItsURL() throws {
            let directory = try freshFactory(model: nil)
            let contents = directory.appendingPathComponent("Missing.xcdatamodel")
            DAOFactory.setModelURL(contents)
            #expect {
                try DAOFactory.factory().tryManagedObjectModel()
            } throws: { error in
                if case PersistenceError.modelNotLoadable(let path, _) = error { path == contents.path } else { false }
            }
        }

        @Test func aModelFileLoadsOnFirstUse() throws {
            let directory = try freshFactory(model: nil)
            let modelFolder = directory.appendingPathComponent("Test.xcdatamodel")
            try FileManager.default.createDirectory(at: modelFolder, withIntermediateDirectories: true)
            let contents = """
                <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
                <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                    <entity name="Note" representedClassName="Note" syncable="YES">
                        <attribute name="text" optional="YES" attributeType="String"/>
                        <attribute name="rank" optional="YES" attributeType="Integer 32" usesScalarValueType="YES"/>
                    </entity>
                </model>
                """
            try Data(contents.utf8).write(to: modelFolder.appendingPathComponent("contents"))
            DAOFactory.setModelURL(modelFolder)
            DAOFactory.setStoreType(NSInMemoryStoreType)
            let factory = DAOFactory.factory()
            #expect(factory.managedObjectModel.entities.map(\.name) == ["Note"])
            let dao = factory.createDAO("Note")!
            let note = try #require(dao.insertNewObject())
            try note.setValue("hello", forKey: "text")
            try note.setValue(3, forKey: "rank")
            #expect(factory.save())
            let criteria = CDSearchCriteria.criteria()
            criteria.addFilter(CDFilter.greather("rank", value: 2))
            #expect(dao.count(criteria) == 1)
            factory.closeStack()
        }

        @Test func otherStoreTypesAreAnError() throws {
            try freshFactory()
            DAOFactory.setStoreType(NSBinaryStoreType)
            #expect {
                try DAOFactory.factory().tryManagedObjectContext()
            } throws: { error in
                if case PersistenceError.unsupportedStoreType("Binary") = error { true } else { false }
            }
        }

        @Test func inMemoryStoresHaveNoFile() throws {
            let directory = try freshFactory()
            DAOFactory.setStoreType(NSInMemoryStoreType)
            let factory = DAOFactory.factory()
            #expect(factory.createDAO("TestEntity").insertNewObject() != nil)
            #expect(factory.save())
            #expect(factory.persistentStoreCoordinator.url == nil)
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
            factory.closeStack()
        }

        @Test func theSeedStoreIsCopiedWhenTheStoreIsMissing() throws {
            let directory = try freshFactory()
            let seed = directory.appendingPathComponent("seed/prefilled.sqlite")
            try FileManager.default.createDirectory(at: seed.deletingLastPathComponent(), withIntermediateDirectories: true)
            do {
                let context = try PersistentContainer(model: FixtureModel.test, url: seed).newContext()
                try TestStore.fill(context)
            }
            DAOFactory.setSeedStoreURL(seed)
            DAOFactory.setStorePath("copied.sqlite")
            let factory = DAOFactory.factory()
            #expect(factory.createDAO("TestEntity").count() == 2)
            #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("copied.sqlite").path))

            // An existing store is not overwritten by the seed.
            let dao = factory.createDAO("TestEntity")!
            _ = dao.insertNewObject()
            #expect(factory.save())
            factory.closeStack()
            #expect(factory.createDAO("TestEntity").count() == 3)
            factory.closeStack()
        }

        @Test func aRegisteredContextIsTheOneDAOsGet() throws {
            try freshFactory()
            DAOFactory.setStoreType(NSInMemoryStoreType)
            let factory = DAOFactory.factory()
            let other = try TestStore.filledContext()
            factory.registerManagedObjectContext(other)
            #expect(factory.createDAO("TestEntity").managedObjectContext === other)
            #expect(factory.managedObjectContext === other)
            #expect(factory.createDAO("TestEntity").count() == 2)
            factory.closeStack()
        }

        @Test func customDAOs() throws {
            try freshFactory()
            DAOFactory.setStoreType(NSInMemoryStoreType)
            let factory = DAOFactory.factory()
            let first = try #require(factory.newDAO(MyCustomDAO.self))
            let second = try #require(factory.newDAO(MyCustomDAO.self))
            #expect(first !== second)
            #expect(first.entityName == "TestEntity")
            #expect(factory.newRuntimeDAO("TestEntity") !== factory.createDAO("TestEntity"))
            let object = try #require(first.insertNewObject())
            try object.setValue("abc", forKey: "name")
            #expect(first.findByName("abc").count == 1)
            #expect(first.findByName("xyz").isEmpty)
            factory.closeStack()
        }

        @Test func savingReportsValidationFailures() throws {
            try freshFactory()
            DAOFactory.setStoreType(NSInMemoryStoreType)
            let factory = DAOFactory.factory()
            let collector = ErrorCollector()
            factory.errorHandler = collector.handler
            // A Child without its required owner.
            _ = factory.createDAO("Child").insertNewObject()
            var error: (any Error)?
            #expect(factory.save(&error) == false)
            #expect(error != nil)
            #expect(factory.save() == false)
            #expect(collector.errors.count == 2)
            #expect(throws: PersistenceError.self) { try factory.trySave() }
            factory.rollback()
            #expect(factory.save(&error))
            #expect(error == nil)

            _ = factory.createDAO("TestEntity").insertNewObject()
            factory.reset()
            #expect(factory.createDAO("TestEntity").count() == 0)

            factory.undo()
            factory.redo()
            #expect(collector.errors.count == 4)
            #expect(collector.errors.last.map { "\($0)" }?.contains("undo") == true)
            factory.errorHandler = nil
            factory.closeStack()
        }
    }
}
