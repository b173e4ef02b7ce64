import CDQIModel
import Foundation
import Testing

@testable import CDQIObjects
@testable import CDQISQLite
@testable import CDQIStore

/// A many-to-many relationship that is its own inverse (`Person.friends` ↔ `Person.friends`, as in
/// RestKit's corpus model): both join columns would be named `Z_1FRIENDS`; the second takes the `1`
/// suffix Core Data gives colliding column names.
@Suite("Self-inverse many-to-many relationship")
struct SelfInverseRelationshipTests {
    private static let contents = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="23507" systemVersion="24G84" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
            <entity name="Person" representedClassName="Person" syncable="YES">
                <attribute name="name" attributeType="String"/>
                <relationship name="friends" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Person" inverseName="friends" inverseEntity="Person"/>
            </entity>
        </model>
        """

    private func model(in folder: URL) throws -> ManagedObjectModel {
        let version = folder.appendingPathComponent("Friends.xcdatamodel")
        try FileManager.default.createDirectory(at: version, withIntermediateDirectories: true)
        try Self.contents.write(to: version.appendingPathComponent("contents"), atomically: true, encoding: .utf8)
        return try ModelLoader().load(url: version).model
    }

    @Test("the join table has two distinct columns, and friendships read back from a reopened store")
    func opensAndRoundTrips() throws {
        let (folder, cleanUp) = try StoreTestSupport.temporaryFolder()
        defer { cleanUp() }
        let model = try model(in: folder)
        let url = folder.appendingPathComponent("Friends.sqlite")
        do {
            let context = ManagedObjectContext(coordinator: try PersistentStoreCoordinator(model: model, url: url))
            let ann = try ContextTestSupport.insert(context, "Person", ["name": "Ann"])
            let bob = try ContextTestSupport.insert(context, "Person", ["name": "Bob"])
            _ = try ContextTestSupport.insert(context, "Person", ["name": "Cy"])
            try ann.setValue(Set([bob]), forKey: "friends")
            // The inverse is the same relationship: Bob now lists Ann.
            let bobsFriends = try #require(try bob.value(forKey: "friends") as? Set<ManagedObject>)
            #expect(bobsFriends == [ann])
            try context.save()
        }
        let columns = try ContextTestSupport.rows(file: url, "SELECT name FROM pragma_table_info('Z_1FRIENDS') ORDER BY cid")
        #expect(columns == [["Z_1FRIENDS"], ["Z_1FRIENDS1"]])

        let reopened = ManagedObjectContext(coordinator: try PersistentStoreCoordinator(model: model, url: url))
        let people = try reopened.fetch(FetchRequest(entityName: "Person", sortDescriptors: [FetchSortDescriptor(keyPath: "name")]))
        func friends(_ index: Int) throws -> Set<String> {
            let set = try #require(try people[index].value(forKey: "friends") as? Set<ManagedObject>)
            return Set(try set.map { try #require(try $0.value(forKey: "name") as? String) })
        }
        #expect(people.count == 3)
        #expect(try friends(0) == ["Bob"])
        #expect(try friends(1) == ["Ann"])
        #expect(try friends(2) == [])
    }
}
