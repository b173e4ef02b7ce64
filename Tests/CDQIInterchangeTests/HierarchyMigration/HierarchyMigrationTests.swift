import CDQIInterchange
import CDQIModel
import CDQIStore
import Foundation
import Testing

/// Lightweight migration of entity hierarchy changes Core Data infers (reference
/// `coredata-migration.md` §2.1, §2.3, §3.3): an entity gaining a new parent, leaving its hierarchy,
/// getting a new intermediate parent, moving to another parent of its hierarchy; entity numbers
/// renumbered in pre-order; references (to-one keys, their `Z<n>_` entity columns, join tables)
/// following. Objects keep their `Z_PK`: rows of one destination table always come from one source
/// table, since merging hierarchies is refused. Every expected row below is worked out by hand from
/// ``ZooBundle/version1Store(in:bundle:)``.
@Suite("Lightweight migration: entity hierarchy changes")
struct HierarchyMigrationTests {
    /// Migrates a version-"Zoo" store to "Zoo 2" made of `changed`, checks what every migration must
    /// give (destination hashes, a fresh store's layout, a clean `cdqi check`, the store opens with the
    /// destination), then runs `body` on the migrated store.
    static func migrate(
        to changed: [String], changes expected: Set<String>, objects: Int = 8,
        _ body: (_ url: URL, _ model: ManagedObjectModel) throws -> Void
    ) throws {
        let folder = try InterchangeTestSupport.Folder()
        let bundle = try ZooBundle.bundle(in: folder.url, changed: changed)
        let url = try ZooBundle.version1Store(in: folder.url, bundle: bundle)
        let uuid = try StoreMetadata.read(from: url).uuid
        let plan = try bundle.migrationPlan(forStoreAt: url)
        #expect(plan.refusals.isEmpty, "\(plan.refusals)")
        #expect(Set(plan.changes.map(\.description)) == expected)
        let report = try bundle.migrateStore(at: url)
        #expect(report.objectCount == objects)  // 8: four animals, two keepers, two tags
        let model = bundle.current.model
        let metadata = try StoreMetadata.read(from: url)
        #expect(metadata.isCompatible(with: model))
        #expect(metadata.uuid == uuid)
        let fresh = folder.file("Fresh.sqlite")
        _ = try SQLiteStore(model: model, url: fresh)
        #expect(try Self.schema(of: url) == Self.schema(of: fresh))
        #expect(try StoreChecker(model: model).check(url) == [])
        #expect(!FileManager.default.fileExists(atPath: url.path + ".cdqi-migrating"))
        try body(url, model)
    }

    /// `type name sql` of every schema object, sorted by name.
    static func schema(of url: URL) throws -> [String] {
        try rows("SELECT type, name, IFNULL(sql, '') FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY name", in: url)
            .map { $0.joined(separator: " ") }
    }

    /// Every row of a query, each value as text (`NULL` for none).
    static func rows(_ sql: String, in url: URL) throws -> [[String]] {
        let connection = try SQLiteConnection(path: url.path, mode: .readOnly)
        let statement = try connection.prepare(sql)
        var rows: [[String]] = []
        while try statement.step() {
            rows.append((0..<statement.columnCount).map { statement.isNull($0) ? "NULL" : statement.string($0) })
        }
        return rows
    }

    static func primaryKeys(_ url: URL) throws -> [[String]] {
        try rows("SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT", in: url)
    }

    static func tables(_ url: URL) throws -> [String] {
        try rows("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'Z%' ORDER BY name", in: url).map { $0[0] }
    }

    @Test("a root gains a new parent: its objects move into the parent's table, entities renumbered, references follow")
    func gainsNewParent() throws {
        // Being (1) ← Animal (2) ← Bird (3) ← Penguin (4), Fish (5); Keeper 6, Tag 7. `name`, `fans` and
        // `tags` move up to Being, and Keeper.favorite and Tag.animals now point at Being.
        let movedUp = [#"name="name""#, #"name="fans""#, #"name="tags""#]
        let animal = ZooBundle.animalMembers.filter { member in !movedUp.contains { member.contains($0) } }
        var keeper = ZooBundle.keeperMembers
        keeper[2] = ZooBundle.toOne("favorite", "Being", inverse: "fans")
        let being = [
            ZooBundle.attribute("name", "String"), ZooBundle.toMany("fans", "Keeper", inverse: "favorite"),
            ZooBundle.toMany("tags", "Tag", inverse: "animals"),
        ]
        let changed = [
            ZooBundle.entity("Being", members: being),
            ZooBundle.entity("Animal", parent: "Being", members: animal),
            ZooBundle.entity("Bird", parent: "Animal", members: ZooBundle.birdMembers),
            ZooBundle.entity("Penguin", parent: "Bird", members: ZooBundle.penguinMembers),
            ZooBundle.entity("Fish", parent: "Animal", members: ZooBundle.fishMembers),
            ZooBundle.entity("Keeper", members: keeper),
            ZooBundle.entity("Tag", members: [ZooBundle.attribute("label", "String"), ZooBundle.toMany("animals", "Being", inverse: "tags")]),
        ]
        let expected: Set = [
            "add entity Being", "change the parent of Animal from none to Being",
            "change the destination of Keeper.favorite from Animal to Being", "change the destination of Tag.animals from Animal to Being",
        ]
        try Self.migrate(to: changed, changes: expected) { url, model throws in
            #expect(
                try Self.tables(url) == ["ZBEING", "ZKEEPER", "ZTAG", "Z_1TAGS", "Z_4FISHES", "Z_METADATA", "Z_MODELCACHE", "Z_PRIMARYKEY"])
            // Penguin (4) ⇄ Fish (5): Penguin, the lower number, still names the join table.
            #expect(try Self.rows("SELECT Z_4PENGUINS, Z_5FISHES FROM Z_4FISHES", in: url) == [["3", "4"]])
            #expect(
                try Self.rows("SELECT Z_PK, Z_ENT, Z_OPT, ZNAME, ZLEGS, ZKEEPER, ZWINGSPAN, ZCOLONY, ZFINS FROM ZBEING ORDER BY Z_PK", in: url) == [
                    ["1", "2", "1", "Rex", "4", "1", "NULL", "NULL", "NULL"],
                    ["2", "3", "2", "Tweety", "2", "1", "0.25", "NULL", "NULL"],
                    ["3", "4", "3", "Pingu", "2", "2", "0.5", "Ross", "NULL"],
                    ["4", "5", "1", "Nemo", "0", "NULL", "NULL", "NULL", "3"],
                ])
            // favorite → Being (1, has sub-entities): Z1_FAVORITE; bird → Bird (3): Z3_BIRD.
            #expect(
                try Self.rows("SELECT Z_PK, Z_ENT, ZNAME, ZFAVORITE, Z1_FAVORITE, ZBIRD, Z3_BIRD, ZFISH FROM ZKEEPER ORDER BY Z_PK", in: url) == [
                    ["1", "6", "Ann", "2", "3", "3", "4", "4"], ["2", "6", "Bob", "4", "5", "2", "3", "NULL"],
                ])
            // Being.tags, moved up from Animal, names its join table after Being (1): the links are Animal's.
            #expect(
                try Self.rows("SELECT Z_1ANIMALS, Z_7TAGS FROM Z_1TAGS ORDER BY Z_7TAGS, Z_1ANIMALS", in: url) == [
                    ["2", "1"], ["3", "1"], ["1", "2"], ["4", "2"],
                ])
            #expect(
                try Self.primaryKeys(url) == [
                    ["1", "Being", "0", "9"], ["2", "Animal", "1", "0"], ["3", "Bird", "2", "0"], ["4", "Penguin", "3", "0"],
                    ["5", "Fish", "2", "0"], ["6", "Keeper", "0", "2"], ["7", "Tag", "0", "2"],
                ])
            // Through the object layer: Ann's favorite is the bird Tweety, named through Being.
            let context = try PersistentContainer(model: model, url: url).viewContext
            let keepers = try context.fetch(FetchRequest(entityName: "Keeper"))
            let ann = try #require(try keepers.first { try $0.value(forKey: "name") as? String == "Ann" })
            let favorite = try #require(try ann.object(forKey: "favorite"))
            #expect(favorite.entity.name == "Bird")
            #expect(try favorite.value(forKey: "name") as? String == "Tweety")
            #expect(try context.count(for: FetchRequest(entityName: "Being")) == 4)
        }
    }

    @Test("a sub-entity leaves its hierarchy: its objects move to its own table, links to them as the old kind are dropped")
    func leavesHierarchy() throws {
        // Animal (1) ← Fish (2); Bird (3) ← Penguin (4); Keeper 5, Tag 6. Bird declares `name` itself.
        let changed = [
            ZooBundle.entity("Animal", members: ZooBundle.animalMembers),
            ZooBundle.entity("Fish", parent: "Animal", members: ZooBundle.fishMembers),
            ZooBundle.entity("Bird", members: [ZooBundle.attribute("name", "String")] + ZooBundle.birdMembers),
            ZooBundle.entity("Penguin", parent: "Bird", members: ZooBundle.penguinMembers),
            ZooBundle.entity("Keeper", members: ZooBundle.keeperMembers),
            ZooBundle.entity("Tag", members: ZooBundle.tagMembers),
        ]
        let expected: Set = [
            "change the parent of Bird from Animal to none", "remove attribute Bird.legs (data dropped)",
            "remove relationship Bird.keeper (links dropped)", "remove relationship Bird.fans (links dropped)",
            "remove relationship Bird.tags (links dropped)",
        ]
        try Self.migrate(to: changed, changes: expected) { url, model throws in
            #expect(
                try Self.tables(url) == [
                    "ZANIMAL", "ZBIRD", "ZKEEPER", "ZTAG", "Z_1TAGS", "Z_2PENGUINS", "Z_METADATA", "Z_MODELCACHE", "Z_PRIMARYKEY",
                ])
            // Fish (2) ⇄ Penguin (4): now Fish names the join table, and the sides swap columns.
            #expect(try Self.rows("SELECT Z_2FISHES, Z_4PENGUINS FROM Z_2PENGUINS", in: url) == [["4", "3"]])
            #expect(
                try Self.rows("SELECT Z_PK, Z_ENT, Z_OPT, ZNAME, ZLEGS, ZKEEPER, ZFINS FROM ZANIMAL ORDER BY Z_PK", in: url) == [
                    ["1", "1", "1", "Rex", "4", "1", "NULL"], ["4", "2", "1", "Nemo", "0", "NULL", "3"],
                ])
            #expect(
                try Self.rows("SELECT Z_PK, Z_ENT, Z_OPT, ZNAME, ZWINGSPAN, ZCOLONY FROM ZBIRD ORDER BY Z_PK", in: url) == [
                    ["2", "3", "2", "Tweety", "0.25", "NULL"], ["3", "4", "3", "Pingu", "0.5", "Ross"],
                ])
            // Ann's favorite Animal was Tweety, no longer an Animal: dropped. Bob's is Nemo, a Fish (2).
            #expect(
                try Self.rows("SELECT Z_PK, ZNAME, ZFAVORITE, Z1_FAVORITE, ZBIRD, Z3_BIRD, ZFISH FROM ZKEEPER ORDER BY Z_PK", in: url) == [
                    ["1", "Ann", "NULL", "NULL", "3", "4", "4"], ["2", "Bob", "4", "2", "2", "3", "NULL"],
                ])
            // Only the tags of animals that are still animals.
            #expect(try Self.rows("SELECT Z_1ANIMALS, Z_6TAGS FROM Z_1TAGS ORDER BY Z_1ANIMALS", in: url) == [["1", "2"], ["4", "2"]])
            // Bird's hierarchy keeps Animal's key counter: no key handed out before is handed out again.
            #expect(
                try Self.primaryKeys(url) == [
                    ["1", "Animal", "0", "9"], ["2", "Fish", "1", "0"], ["3", "Bird", "0", "9"], ["4", "Penguin", "3", "0"],
                    ["5", "Keeper", "0", "2"], ["6", "Tag", "0", "2"],
                ])
            let context = try PersistentContainer(model: model, url: url).viewContext
            let tags = try context.fetch(FetchRequest(entityName: "Tag"))
            let loud = try #require(try tags.first { try $0.value(forKey: "label") as? String == "loud" })
            #expect(try loud.objects(forKey: "animals").isEmpty)
            #expect(try context.count(for: FetchRequest(entityName: "Bird")) == 2)
        }
    }

    @Test("a new intermediate entity: the sub-tree below it is renumbered and references follow")
    func intermediateParent() throws {
        // Animal (1) ← Fish (2), Vertebrate (3) ← Bird (4) ← Penguin (5); Keeper 6, Tag 7.
        let changed = [
            ZooBundle.entity("Animal", members: ZooBundle.animalMembers),
            ZooBundle.entity("Vertebrate", parent: "Animal", members: [ZooBundle.attribute("backbone", "String")]),
            ZooBundle.entity("Bird", parent: "Vertebrate", members: ZooBundle.birdMembers),
            ZooBundle.entity("Penguin", parent: "Bird", members: ZooBundle.penguinMembers),
            ZooBundle.entity("Fish", parent: "Animal", members: ZooBundle.fishMembers),
            ZooBundle.entity("Keeper", members: ZooBundle.keeperMembers),
            ZooBundle.entity("Tag", members: ZooBundle.tagMembers),
        ]
        try Self.migrate(to: changed, changes: ["add entity Vertebrate", "change the parent of Bird from Animal to Vertebrate"]) { url, _ throws in
            #expect(
                try Self.rows("SELECT Z_PK, Z_ENT, ZNAME, ZWINGSPAN, ZCOLONY, ZFINS, ZBACKBONE FROM ZANIMAL ORDER BY Z_PK", in: url) == [
                    ["1", "1", "Rex", "NULL", "NULL", "NULL", "NULL"], ["2", "4", "Tweety", "0.25", "NULL", "NULL", "NULL"],
                    ["3", "5", "Pingu", "0.5", "Ross", "NULL", "NULL"], ["4", "2", "Nemo", "NULL", "NULL", "3", "NULL"],
                ])
            #expect(
                try Self.rows("SELECT Z_PK, ZFAVORITE, Z1_FAVORITE, ZBIRD, Z4_BIRD, ZFISH FROM ZKEEPER ORDER BY Z_PK", in: url) == [
                    ["1", "2", "4", "3", "5", "4"], ["2", "4", "2", "2", "4", "NULL"],
                ])
            #expect(
                try Self.rows("SELECT Z_1ANIMALS, Z_7TAGS FROM Z_1TAGS ORDER BY Z_7TAGS, Z_1ANIMALS", in: url) == [
                    ["2", "1"], ["3", "1"], ["1", "2"], ["4", "2"],
                ])
            #expect(try Self.rows("SELECT Z_2FISHES, Z_5PENGUINS FROM Z_2PENGUINS", in: url) == [["4", "3"]])
            #expect(
                try Self.primaryKeys(url) == [
                    ["1", "Animal", "0", "9"], ["2", "Fish", "1", "0"], ["3", "Vertebrate", "1", "0"], ["4", "Bird", "3", "0"],
                    ["5", "Penguin", "4", "0"], ["6", "Keeper", "0", "2"], ["7", "Tag", "0", "2"],
                ])
        }
    }

    @Test("a sub-entity moves to another parent of its hierarchy: renumbered, the old parent's properties and links dropped")
    func movesBetweenParents() throws {
        // Animal (1) ← Bird (2), Fish (3) ← Penguin (4); Keeper 5, Tag 6. Bird has no sub-entity left.
        let changed = [
            ZooBundle.entity("Animal", members: ZooBundle.animalMembers),
            ZooBundle.entity("Bird", parent: "Animal", members: ZooBundle.birdMembers),
            ZooBundle.entity("Penguin", parent: "Fish", members: ZooBundle.penguinMembers),
            ZooBundle.entity("Fish", parent: "Animal", members: ZooBundle.fishMembers),
            ZooBundle.entity("Keeper", members: ZooBundle.keeperMembers),
            ZooBundle.entity("Tag", members: ZooBundle.tagMembers),
        ]
        let expected: Set = [
            "change the parent of Penguin from Bird to Fish", "remove attribute Penguin.wingspan (data dropped)",
            "remove relationship Penguin.watchers (links dropped)",
        ]
        try Self.migrate(to: changed, changes: expected) { url, _ throws in
            #expect(
                try Self.rows("SELECT Z_PK, Z_ENT, Z_OPT, ZNAME, ZLEGS, ZWINGSPAN, ZCOLONY, ZFINS FROM ZANIMAL ORDER BY Z_PK", in: url) == [
                    ["1", "1", "1", "Rex", "4", "NULL", "NULL", "NULL"], ["2", "2", "2", "Tweety", "2", "0.25", "NULL", "NULL"],
                    ["3", "4", "3", "Pingu", "2", "NULL", "Ross", "NULL"], ["4", "3", "1", "Nemo", "0", "NULL", "NULL", "3"],
                ])
            // bird → Bird, now a leaf: no entity column; Ann's bird Pingu is no longer a Bird. fish → Fish
            // (3), which now has a sub-entity: Z3_FISH holds Nemo's entity, read from its row.
            #expect(
                try Self.rows("SELECT Z_PK, ZFAVORITE, Z1_FAVORITE, ZBIRD, ZFISH, Z3_FISH FROM ZKEEPER ORDER BY Z_PK", in: url) == [
                    ["1", "2", "2", "NULL", "4", "3"], ["2", "4", "3", "2", "NULL", "NULL"],
                ])
            #expect(
                try Self.rows("SELECT Z_1ANIMALS, Z_6TAGS FROM Z_1TAGS ORDER BY Z_6TAGS, Z_1ANIMALS", in: url) == [
                    ["2", "1"], ["3", "1"], ["1", "2"], ["4", "2"],
                ])
            // Fish (3) ⇄ Penguin (4), now one of Fish's sub-entities: the link is kept.
            #expect(try Self.rows("SELECT Z_3FISHES, Z_4PENGUINS FROM Z_3PENGUINS", in: url) == [["4", "3"]])
            #expect(
                try Self.primaryKeys(url) == [
                    ["1", "Animal", "0", "9"], ["2", "Bird", "1", "0"], ["3", "Fish", "1", "0"], ["4", "Penguin", "3", "0"],
                    ["5", "Keeper", "0", "2"], ["6", "Tag", "0", "2"],
                ])
        }
    }
}

extension HierarchyMigrationTests {
    @Test("a parent is removed: its objects go, its sub-entity moves up to the grandparent, links to the removed objects dropped")
    func parentRemoved() throws {
        // Animal (1) ← Fish (2), Penguin (3); Keeper 4, Tag 5. Bird and Keeper.bird are gone; wingspan moves down to Penguin.
        let changed = [
            ZooBundle.entity("Animal", members: ZooBundle.animalMembers),
            ZooBundle.entity("Penguin", parent: "Animal", members: [ZooBundle.attribute("wingspan", "Double")] + ZooBundle.penguinMembers),
            ZooBundle.entity("Fish", parent: "Animal", members: ZooBundle.fishMembers),
            ZooBundle.entity("Keeper", members: ZooBundle.keeperMembers.filter { !$0.contains(#"name="bird""#) }),
            ZooBundle.entity("Tag", members: ZooBundle.tagMembers),
        ]
        let expected: Set = [
            "remove entity Bird (its objects are deleted)", "change the parent of Penguin from Bird to Animal",
            "remove relationship Penguin.watchers (links dropped)", "remove relationship Keeper.bird (links dropped)",
        ]
        try Self.migrate(to: changed, changes: expected, objects: 7) { url, _ throws in
            #expect(
                try Self.rows("SELECT Z_PK, Z_ENT, Z_OPT, ZNAME, ZWINGSPAN, ZCOLONY, ZFINS FROM ZANIMAL ORDER BY Z_PK", in: url) == [
                    ["1", "1", "1", "Rex", "NULL", "NULL", "NULL"], ["3", "3", "3", "Pingu", "0.5", "Ross", "NULL"],
                    ["4", "2", "1", "Nemo", "NULL", "NULL", "3"],
                ])
            // Ann's favorite, Tweety, was deleted with Bird: no key left naming a missing row.
            #expect(
                try Self.rows("SELECT Z_PK, ZFAVORITE, Z1_FAVORITE, ZFISH FROM ZKEEPER ORDER BY Z_PK", in: url) == [
                    ["1", "NULL", "NULL", "4"], ["2", "4", "2", "NULL"],
                ])
            #expect(
                try Self.rows("SELECT Z_1ANIMALS, Z_5TAGS FROM Z_1TAGS ORDER BY Z_5TAGS, Z_1ANIMALS", in: url) == [
                    ["3", "1"], ["1", "2"], ["4", "2"],
                ])
            #expect(try Self.rows("SELECT Z_2FISHES, Z_3PENGUINS FROM Z_2PENGUINS", in: url) == [["4", "3"]])
            #expect(
                try Self.primaryKeys(url) == [
                    ["1", "Animal", "0", "9"], ["2", "Fish", "1", "0"], ["3", "Penguin", "1", "0"], ["4", "Keeper", "0", "2"],
                    ["5", "Tag", "0", "2"],
                ])
        }
    }
}

/// A required to-one whose link would be dropped (the object it names leaves the destination's
/// hierarchy) is refused as a missing value, before anything is written.
@Suite("Lightweight migration: required links to objects leaving a hierarchy")
struct HierarchyRequiredLinkTests {
    @Test("Ann's required favorite Animal is Tweety, whose Bird leaves Animal: refused, the store unchanged")
    func requiredLinkDropped() throws {
        var keeper = ZooBundle.keeperMembers
        keeper[2] = #"<relationship name="favorite" maxCount="1" deletionRule="Nullify" destinationEntity="Animal" inverseName="fans" inverseEntity="Animal"/>"#
        let changed = [
            ZooBundle.entity("Animal", members: ZooBundle.animalMembers),
            ZooBundle.entity("Fish", parent: "Animal", members: ZooBundle.fishMembers),
            ZooBundle.entity("Bird", members: [ZooBundle.attribute("name", "String")] + ZooBundle.birdMembers),
            ZooBundle.entity("Penguin", parent: "Bird", members: ZooBundle.penguinMembers),
            ZooBundle.entity("Keeper", members: keeper),
            ZooBundle.entity("Tag", members: ZooBundle.tagMembers),
        ]
        let folder = try InterchangeTestSupport.Folder()
        let bundle = try ZooBundle.bundle(in: folder.url, changed: changed)
        let url = try ZooBundle.version1Store(in: folder.url, bundle: bundle)
        let before = try Self.content(of: url)
        #expect(
            throws: MigrationError.missingValues(
                store: url.path,
                problems: ["1 Keeper object(s) have a required favorite naming an object that is no longer of entity Animal (it left the hierarchy)"])
        ) {
            try bundle.migrateStore(at: url)
        }
        // The check runs once the store is checkpointed (its journal mode switched back and forth), so
        // the content is compared, not the bytes.
        #expect(try Self.content(of: url) == before)
        #expect(!FileManager.default.fileExists(atPath: url.path + ".cdqi-migrating"))
        #expect(try StoreMetadata.read(from: url).isCompatible(with: try #require(bundle.version(named: "Zoo")).model))
    }

    /// The schema and every row of every table.
    static func content(of url: URL) throws -> [[String]] {
        var content = try HierarchyMigrationTests.schema(of: url).map { [$0] }
        for table in try HierarchyMigrationTests.rows("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name", in: url) {
            content += try HierarchyMigrationTests.rows("SELECT * FROM \(table[0])", in: url).sorted { $0.lexicographicallyPrecedes($1) }
        }
        return content
    }
}

/// What Core Data refuses: merging two hierarchies into one table (and, here, a to-one narrowed to a
/// sub-entity of its destination). Refused before anything is written, each offending change named.
@Suite("Lightweight migration: hierarchy refusals")
struct HierarchyRefusalTests {
    static func expectRefused(_ changed: [String], _ expected: [String]) throws {
        let folder = try InterchangeTestSupport.Folder()
        let bundle = try ZooBundle.bundle(in: folder.url, changed: changed)
        let url = try ZooBundle.version1Store(in: folder.url, bundle: bundle)
        let before = Self.storeFiles(url)
        do throws(MigrationError) {
            try bundle.migrateStore(at: url)
            Issue.record("the refused change was migrated")
        } catch {
            guard case .notInferable(let from, let to, let changes) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(from == "Zoo" && to == "Zoo 2")
            #expect(changes.map(\.description) == expected)
            #expect(error.code == 134_140)
        }
        #expect(Self.storeFiles(url) == before)
    }

    /// The bytes of the store, of its write-ahead log, rollback journal and migration copy when they hold
    /// something (an empty log, which a read-only open leaves behind, holds nothing; the `-shm` index
    /// holds no content).
    static func storeFiles(_ url: URL) -> [String: Data] {
        var files: [String: Data] = [:]
        for suffix in ["", "-wal", "-journal", ".cdqi-migrating"] {
            files[suffix] = (try? Data(contentsOf: URL(fileURLWithPath: url.path + suffix))).flatMap { $0.isEmpty ? nil : $0 }
        }
        return files
    }

    @Test("an existing root put under another hierarchy's entity")
    func rootJoinsHierarchy() throws {
        var keeper = ZooBundle.keeperMembers
        keeper.removeFirst()  // `name` is inherited from Animal
        try Self.expectRefused(
            [
                ZooBundle.entity("Animal", members: ZooBundle.animalMembers),
                ZooBundle.entity("Bird", parent: "Animal", members: ZooBundle.birdMembers),
                ZooBundle.entity("Penguin", parent: "Bird", members: ZooBundle.penguinMembers),
                ZooBundle.entity("Fish", parent: "Animal", members: ZooBundle.fishMembers),
                ZooBundle.entity("Keeper", parent: "Animal", members: keeper),
                ZooBundle.entity("Tag", members: ZooBundle.tagMembers),
            ],
            [
                "change the parent of Keeper from none to Animal: not inferable (it merges the hierarchies of Animal and Keeper "
                    + "into Animal's; Core Data cannot merge entity hierarchies)"
            ])
    }

    @Test("a to-one narrowed to a sub-entity of its destination (links to the other objects would be lost)")
    func destinationNarrowed() throws {
        var keeper = ZooBundle.keeperMembers
        keeper[2] = ZooBundle.toOne("favorite", "Bird", inverse: "fans")
        try Self.expectRefused(
            [
                ZooBundle.entity("Animal", members: ZooBundle.animalMembers.filter { !$0.contains(#"name="fans""#) }),
                ZooBundle.entity(
                    "Bird", parent: "Animal", members: ZooBundle.birdMembers + [ZooBundle.toMany("fans", "Keeper", inverse: "favorite")]),
                ZooBundle.entity("Penguin", parent: "Bird", members: ZooBundle.penguinMembers),
                ZooBundle.entity("Fish", parent: "Animal", members: ZooBundle.fishMembers),
                ZooBundle.entity("Keeper", members: keeper),
                ZooBundle.entity("Tag", members: ZooBundle.tagMembers),
            ],
            [
                "change the destination of Keeper.favorite from Animal to Bird: not inferable (the destination is not the old "
                    + "destination, its renamed self or one of its ancestors)"
            ])
    }

    @Test("two existing roots given one new parent, and a sub-entity moved into another hierarchy")
    func newCommonParentAndMoveAcross() throws {
        try Self.expectRefused(
            [
                ZooBundle.entity("Animal", members: ZooBundle.animalMembers),
                ZooBundle.entity("Bird", parent: "Animal", members: ZooBundle.birdMembers),
                ZooBundle.entity("Penguin", parent: "Tag", members: ZooBundle.penguinMembers),
                ZooBundle.entity("Fish", parent: "Animal", members: ZooBundle.fishMembers),
                ZooBundle.entity("Staff", abstract: true, members: [ZooBundle.attribute("badge", "String")]),
                ZooBundle.entity("Keeper", parent: "Staff", members: ZooBundle.keeperMembers),
                ZooBundle.entity("Tag", parent: "Staff", members: ZooBundle.tagMembers),
            ],
            [
                "change the parent of Penguin from Bird to Tag: not inferable (it merges the hierarchies of Animal, Keeper "
                    + "and Tag into Staff's; Core Data cannot merge entity hierarchies)",
                "change the parent of Keeper from none to Staff: not inferable (it merges the hierarchies of Animal, Keeper "
                    + "and Tag into Staff's; Core Data cannot merge entity hierarchies)",
                "change the parent of Tag from none to Staff: not inferable (it merges the hierarchies of Animal, Keeper "
                    + "and Tag into Staff's; Core Data cannot merge entity hierarchies)",
            ])
    }
}
