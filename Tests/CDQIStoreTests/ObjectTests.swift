import CDQIModel
import CDQIPredicate
import Foundation
import Testing

@testable import CDQIObjects
@testable import CDQISQLite
@testable import CDQIStore

/// A subclass registered for the Employee entity.
final class CompanyEmployee: ManagedObject {
    var firstName: String? { try? value(forKey: "firstName") as? String }
}

/// A subclass that records its life-cycle calls and sets a value on insert and before saving.
final class HookedDepartment: ManagedObject {
    var calls: [String] = []
    override func awakeFromInsert() {
        calls.append("awakeFromInsert")
        try? setValue("Unnamed", forKey: "name")
    }
    override func awakeFromFetch() { calls.append("awakeFromFetch") }
    override func willSave() {
        calls.append("willSave")
        if (try? value(forKey: "budget")) as? Decimal == nil { try? setValue(Decimal(7), forKey: "budget") }
    }
    override func didSave() { calls.append("didSave") }
}

/// Subclasses, the predicate evaluator over managed objects, polymorphic to-ones and ordered
/// many-to-many relationships.
@Suite("Managed objects")
struct ObjectTests {
    @Test("objects hash by identity: a hasher is fed their ObjectIdentifier, and a set holds each object once")
    func identityHashing() throws {
        let context = try ContextTestSupport.memoryContext("Company")
        let objects = try (0..<100).map { _ in try context.insertNewObject(forEntityName: "Department") }
        for object in objects.prefix(3) {
            #expect(object.hashValue == object.hashValue)
            var viaObject = Hasher(), viaIdentifier = Hasher()
            viaObject.combine(object)
            viaIdentifier.combine(ObjectIdentifier(object))
            #expect(viaObject.finalize() == viaIdentifier.finalize())
        }
        let set = Set(objects + objects.prefix(10))
        #expect(set.count == 100)
        #expect(objects.allSatisfy { set.contains($0) })
        let other = try context.insertNewObject(forEntityName: "Department")
        #expect(!set.contains(other))
    }

    @Test("objects' hashes spread over a table's buckets although their addresses are aligned")
    func hashesSpread() throws {
        let context = try ContextTestSupport.memoryContext("Company")
        let objects = try (0..<1024).map { _ in try context.insertNewObject(forEntityName: "Department") }
        // Addresses are multiples of 16: low bits taken from them unmixed would fill at most 64 of 1024
        // buckets. Hashes that look random fill about 1024 × (1 − 1/e) ≈ 647 of them.
        let buckets = Set(objects.map { $0.hashValue & 1023 })
        #expect(buckets.count > 500)
        #expect(Set(objects.map(\.hashValue)).count == 1024)
    }

    @Test("a registered subclass is instantiated for inserts and for faults")
    func subclasses() throws {
        let (coordinator, _, cleanUp) = try ContextTestSupport.fileCoordinator("Company")
        defer { cleanUp() }
        coordinator.register(CompanyEmployee.self, forEntityName: "Employee")
        let context = ManagedObjectContext(coordinator: coordinator)
        let typed = try context.insert(CompanyEmployee.self)
        try typed.setValue("Ada", forKey: "firstName")
        try typed.setValue("L", forKey: "lastName")
        #expect(typed.entity.name == "Employee")
        let plain = try context.insertNewObject(forEntityName: "Employee")
        #expect(plain is CompanyEmployee)
        try plain.setValue("B", forKey: "firstName")
        try plain.setValue("B", forKey: "lastName")
        #expect(try context.insertNewObject(forEntityName: "Department") is CompanyEmployee == false)
        context.rollback()
        try ContextTestSupport.insert(context, "Employee", ["firstName": "Ada", "lastName": "L"])
        try context.save()

        let fresh = ManagedObjectContext(coordinator: coordinator)
        let id = try #require(fresh.objectID(forURIString: "x-coredata://\(coordinator.storeIdentifier)/Employee/p1"))
        let fault = try #require(fresh.object(with: id) as? CompanyEmployee)
        #expect(fault.firstName == "Ada")
        do {
            _ = try context.insert(ObjectTestsUnregistered.self)
            Issue.record("an unregistered class without a matching entity cannot be inserted")
        } catch {
            guard case .unknownEntity = error else {
                Issue.record("wrong error \(error)")
                return
            }
        }
    }

    @Test("a class registered after a context made faults of the entity makes its later faults")
    func registrationAfterFaults() throws {
        let (coordinator, _, cleanUp) = try ContextTestSupport.fileCoordinator("Company")
        defer { cleanUp() }
        let writer = ManagedObjectContext(coordinator: coordinator)
        try ContextTestSupport.insert(writer, "Employee", ["firstName": "Ada", "lastName": "L"])
        try ContextTestSupport.insert(writer, "Employee", ["firstName": "Alan", "lastName": "T"])
        try writer.save()

        let context = ManagedObjectContext(coordinator: coordinator)
        func fault(_ key: Int) throws -> ManagedObject {
            let uri = "x-coredata://\(coordinator.storeIdentifier)/Employee/p\(key)"
            return context.object(with: try #require(context.objectID(forURIString: uri)))
        }
        // Nothing registered yet: the first fault is a plain object (the context keeps that answer).
        #expect(try !(fault(1) is CompanyEmployee))
        coordinator.register(CompanyEmployee.self, forEntityName: "Employee")
        // The registration is seen by the same context's next fault of the entity.
        let second = try fault(2)
        #expect(second is CompanyEmployee)
        #expect(try second.value(forKey: "firstName") as? String == "Alan")
    }

    @Test("the in-memory predicate evaluator reads managed objects, faults included")
    func predicates() throws {
        let (coordinator, _, cleanUp) = try ContextTestSupport.fileCoordinator("Company")
        defer { cleanUp() }
        let context = ManagedObjectContext(coordinator: coordinator)
        let research = try ContextTestSupport.insert(context, "Department", ["name": "Research"])
        let ada = try ContextTestSupport.insert(context, "Employee", ["firstName": "Ada", "lastName": "L", "salary": 100, "department": research])
        try ContextTestSupport.insert(context, "Employee", ["firstName": "Alan", "lastName": "T", "salary": 40, "department": research])
        try context.save()

        #expect(try PredicateNode(format: "department.name == %@ AND salary > 50", "Research").evaluate(with: ada))
        #expect(try !PredicateNode(format: "nickName != nil").evaluate(with: ada))
        #expect(try PredicateNode(format: "department == %@", research.objectID.reference).evaluate(with: ada))
        let fresh = ManagedObjectContext(coordinator: coordinator)
        let department = fresh.object(with: research.objectID)
        #expect(department.isFault)
        #expect(try PredicateNode(format: "ANY employees.firstName == 'Alan'").evaluate(with: department))
        #expect(try PredicateNode(format: "employees.@count == 2 AND employees.@sum.salary == 140").evaluate(with: department))
        #expect(throws: PredicateEvaluationError.self) { try PredicateNode(format: "nope == 1").evaluate(with: department) }
    }

    /// Media (1) ← Video (2); Playlist (3) ⇄ Song (5), `songs` ordered; Review (4) → Media, a hierarchy.
    private func mediaModel() -> ManagedObjectModel {
        func attribute(_ name: String) -> AttributeDescription { AttributeDescription(name: name, type: .string, isOptional: true) }
        func relationship(
            _ name: String, _ destination: String, _ inverse: String, toMany: Bool, ordered: Bool = false
        )
            -> RelationshipDescription
        {
            var relationship = RelationshipDescription(
                name: name, destinationEntityName: destination, inverseName: inverse, inverseEntityName: destination,
                isToMany: toMany)
            relationship.isOptional = true
            relationship.isOrdered = ordered
            return relationship
        }
        var media = EntityDescription(name: "Media")
        media.attributes = [attribute("title")]
        media.relationships = [relationship("reviews", "Review", "media", toMany: true)]
        var video = EntityDescription(name: "Video", parentEntityName: "Media")
        video.attributes = [attribute("codec")]
        var review = EntityDescription(name: "Review")
        review.attributes = [attribute("text")]
        review.relationships = [relationship("media", "Media", "reviews", toMany: false)]
        var playlist = EntityDescription(name: "Playlist")
        playlist.attributes = [attribute("name")]
        playlist.relationships = [relationship("songs", "Song", "playlists", toMany: true, ordered: true)]
        var song = EntityDescription(name: "Song")
        song.attributes = [attribute("title")]
        song.relationships = [relationship("playlists", "Playlist", "songs", toMany: true)]
        return ManagedObjectModel(entities: [media, playlist, review, song, video])
    }

    @Test("a to-one to a hierarchy stores the destination's Z_ENT and reads back the right entity")
    func polymorphicToOne() throws {
        let (folder, cleanUp) = try StoreTestSupport.temporaryFolder()
        defer { cleanUp() }
        let url = folder.appendingPathComponent("Media.sqlite")
        let coordinator = try PersistentStoreCoordinator(model: mediaModel(), url: url)
        let context = ManagedObjectContext(coordinator: coordinator)
        let plain = try ContextTestSupport.insert(context, "Media", ["title": "Plain"])
        let video = try ContextTestSupport.insert(context, "Video", ["title": "Clip", "codec": "h264"])
        try ContextTestSupport.insert(context, "Review", ["text": "good", "media": video])
        try ContextTestSupport.insert(context, "Review", ["text": "fine", "media": plain])
        #expect(try video.objects(forKey: "reviews").count == 1)
        try context.save()
        #expect(
            try ContextTestSupport.rows(file: url, "SELECT ZTEXT, ZMEDIA, Z1_MEDIA FROM ZREVIEW ORDER BY Z_PK") == [
                ["good", "2", "2"], ["fine", "1", "1"],
            ])
        let fresh = ManagedObjectContext(coordinator: coordinator)
        let review = fresh.object(with: try #require(fresh.objectID(forURIString: "x-coredata://\(coordinator.storeIdentifier)/Review/p1")))
        let media = try #require(try review.object(forKey: "media"))
        #expect(media.entity.name == "Video")
        #expect(try media.value(forKey: "codec") as? String == "h264")
        #expect(try media.objects(forKey: "reviews") == [review])
    }

    @Test("an ordered many-to-many keeps its order in the join table's Z_FOK_ column")
    func orderedManyToMany() throws {
        let (folder, cleanUp) = try StoreTestSupport.temporaryFolder()
        defer { cleanUp() }
        let url = folder.appendingPathComponent("Media.sqlite")
        let coordinator = try PersistentStoreCoordinator(model: mediaModel(), url: url)
        let context = ManagedObjectContext(coordinator: coordinator)
        let mix = try ContextTestSupport.insert(context, "Playlist", ["name": "Mix"])
        let one = try ContextTestSupport.insert(context, "Song", ["title": "One"])
        let two = try ContextTestSupport.insert(context, "Song", ["title": "Two"])
        let three = try ContextTestSupport.insert(context, "Song", ["title": "Three"])
        try mix.setValue([two, one, three], forKey: "songs")
        #expect(try one.objects(forKey: "playlists") == [mix])
        try context.save()
        // Playlist 3 names the table: Z_3SONGS (Z_3PLAYLISTS, Z_5SONGS, Z_FOK_5SONGS).
        #expect(
            try ContextTestSupport.rows(file: url, "SELECT Z_3PLAYLISTS, Z_5SONGS, Z_FOK_5SONGS FROM Z_3SONGS ORDER BY Z_FOK_5SONGS") == [
                ["1", "2", "2048"], ["1", "1", "3072"], ["1", "3", "4096"],
            ])
        try mix.insertObject(three, at: 0, forKey: "songs")
        try mix.removeObject(two, fromKey: "songs")
        try context.save()
        #expect(
            try ContextTestSupport.rows(file: url, "SELECT Z_5SONGS, Z_FOK_5SONGS FROM Z_3SONGS ORDER BY Z_FOK_5SONGS") == [
                ["3", "2048"], ["1", "3072"],
            ])
        let fresh = ManagedObjectContext(coordinator: coordinator)
        let songs = try fresh.existingObject(with: mix.objectID).objects(forKey: "songs")
        #expect(try songs.map { try $0.value(forKey: "title") as? String } == ["Three", "One"])
    }

    @Test("an object made directly with a context becomes its fault for the ID; a second one has no context; both outlive it")
    func directlyMadeObjects() throws {
        let (coordinator, _, cleanUp) = try ContextTestSupport.fileCoordinator("Company")
        defer { cleanUp() }
        let setup = ManagedObjectContext(coordinator: coordinator)
        let ada = try ContextTestSupport.insert(setup, "Employee", ["firstName": "Ada", "lastName": "L"])
        try setup.save()
        let id = ada.objectID
        var context: ManagedObjectContext? = ManagedObjectContext(coordinator: coordinator)
        let made = CompanyEmployee(entity: id.entity, objectID: id, context: context)
        let second = CompanyEmployee(entity: id.entity, objectID: id, context: context)
        #expect(made.managedObjectContext === context && context?.registeredObject(for: id) === made)
        #expect(second.managedObjectContext == nil)
        #expect(made.isFault)
        #expect(try made.value(forKey: "firstName") as? String == "Ada")
        #expect(throws: ManagedObjectError.self) { try second.value(forKey: "firstName") }
        context = nil
        // The released context left its objects: they answer without it, and do not crash.
        #expect(made.managedObjectContext == nil && made.isFault)
        #expect(throws: ManagedObjectError.self) { try made.value(forKey: "firstName") }
    }

    @Test("a fault for a key no row had yet leaves the context when a save gives that key to a new object")
    func faultForAKeyTakenBySave() throws {
        let (coordinator, _, cleanUp) = try ContextTestSupport.fileCoordinator("Company")
        defer { cleanUp() }
        var context: ManagedObjectContext? = ManagedObjectContext(coordinator: coordinator)
        let uri = "x-coredata://\(coordinator.storeIdentifier)/Employee/p1"
        let id = try #require(context?.objectID(forURIString: uri))
        let early = try #require(context?.object(with: id))
        let ada = try #require(try context.map { try ContextTestSupport.insert($0, "Employee", ["firstName": "Ada", "lastName": "L"]) })
        try context?.save()
        #expect(ada.objectID == id && context?.object(with: id) === ada)
        #expect(early.managedObjectContext == nil)
        context = nil
        // Neither object traps once the context is gone.
        #expect(throws: ManagedObjectError.self) { try early.value(forKey: "firstName") }
        #expect(ada.managedObjectContext == nil)
    }

    @Test("insert(_:) follows the class registry: a class registered for another entity's place stops inserting")
    func insertFollowsRegistrations() throws {
        let (coordinator, _, cleanUp) = try ContextTestSupport.fileCoordinator("Company")
        defer { cleanUp() }
        let context = ManagedObjectContext(coordinator: coordinator)
        #expect(throws: ContextError.self) { try context.insert(ObjectTestsUnregistered.self) }
        coordinator.register(CompanyEmployee.self, forEntityName: "Employee")
        #expect(try context.insert(CompanyEmployee.self).entity.name == "Employee")
        #expect(try context.insert(CompanyEmployee.self).entity.name == "Employee")
        // Employee objects are OtherEmployee instances now, and CompanyEmployee names no entity.
        coordinator.register(OtherEmployee.self, forEntityName: "Employee")
        #expect(throws: ContextError.self) { try context.insert(CompanyEmployee.self) }
        #expect(try context.insert(OtherEmployee.self).entity.name == "Employee")
        #expect(context.insertedObjects.count == 3)
    }

    @Test("life-cycle hooks run on insert, fetch and save; willSave's changes are saved")
    func hooks() throws {
        let (coordinator, url, cleanUp) = try ContextTestSupport.fileCoordinator("Company")
        defer { cleanUp() }
        coordinator.register(HookedDepartment.self, forEntityName: "Department")
        let context = ManagedObjectContext(coordinator: coordinator)
        let department = try #require(try context.insertNewObject(forEntityName: "Department") as? HookedDepartment)
        #expect(department.calls == ["awakeFromInsert"])
        let changes = try context.save()
        #expect(department.calls == ["awakeFromInsert", "willSave", "didSave"])
        #expect(changes.inserted == [department.objectID])
        // ZBUDGET is DECIMAL (NUMERIC affinity): SQLite keeps the whole number 7.0 as the INTEGER 7.
        #expect(try ContextTestSupport.rows(file: url, "SELECT ZNAME, ZBUDGET FROM ZDEPARTMENT") == [["Unnamed", "7"]])
        let fresh = ManagedObjectContext(coordinator: coordinator)
        let loaded = try #require(try fresh.existingObject(with: department.objectID) as? HookedDepartment)
        #expect(loaded.calls == ["awakeFromFetch"])
        #expect(try loaded.value(forKey: "budget") as? Decimal == Decimal(7))
    }

    @Test("a fetch awakes the objects it loads, once each, and not those loaded before")
    func awakeOnlyLoaded() throws {
        let (coordinator, _, cleanUp) = try ContextTestSupport.fileCoordinator("Company")
        defer { cleanUp() }
        coordinator.register(HookedDepartment.self, forEntityName: "Department")
        let context = ManagedObjectContext(coordinator: coordinator)
        let inserted = try (0..<4).map { _ in try context.insertNewObject(forEntityName: "Department") }
        try context.save()
        let ids = inserted.map(\.objectID)  // permanent since the save
        let fresh = ManagedObjectContext(coordinator: coordinator)
        // The second and fourth are loaded before the fetch; the first is registered but a fault.
        let second = try #require(try fresh.existingObject(with: ids[1]) as? HookedDepartment)
        let fourth = try #require(try fresh.existingObject(with: ids[3]) as? HookedDepartment)
        let first = try #require(fresh.object(with: ids[0]) as? HookedDepartment)
        #expect(first.calls.isEmpty)
        let fetched = try fresh.fetch(FetchRequest(entityName: "Department")).compactMap { $0 as? HookedDepartment }
        #expect(fetched.map(\.objectID) == ids)
        #expect(fetched.map(\.calls) == [["awakeFromFetch"], ["awakeFromFetch"], ["awakeFromFetch"], ["awakeFromFetch"]])
        #expect(second.calls == ["awakeFromFetch"] && fourth.calls == ["awakeFromFetch"])
    }
}

/// A class registered for no entity, with no entity of its name.
final class ObjectTestsUnregistered: ManagedObject {}

/// A second class for the Employee entity, registered in place of ``CompanyEmployee``.
final class OtherEmployee: ManagedObject {}
