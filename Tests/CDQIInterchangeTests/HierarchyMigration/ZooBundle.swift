import CDQIModel
import CDQIStore
import Foundation

/// The model bundles of the hierarchy-migration tests, written into the test's folder: version "Zoo" and
/// one changed version "Zoo 2" (the current one).
///
/// Version "Zoo" (entity numbers in Core Data's pre-order: name-sorted roots, each followed by its
/// name-sorted sub-entities):
///
/// ```
/// Animal (1)  name, legs; keeper → Keeper; fans ⇄ Keeper.favorite; tags ⇄ Tag.animals
///   Bird (2)  wingspan; watchers ⇄ Keeper.bird
///     Penguin (3)  colony; fishes ⇄ Fish.penguins (join table Z_3FISHES)
///   Fish (4)  fins; carers ⇄ Keeper.fish; penguins ⇄ Penguin.fishes
/// Keeper (5)  name; animals ⇄ Animal.keeper; favorite → Animal; bird → Bird; fish → Fish
/// Tag (6)     label; animals ⇄ Animal.tags (join table Z_1TAGS)
/// ```
enum ZooBundle {
    /// An optional attribute.
    static func attribute(_ name: String, _ type: String) -> String {
        #"<attribute name="\#(name)" optional="YES" attributeType="\#(type)"/>"#
    }

    /// An optional to-one relationship with its inverse.
    static func toOne(_ name: String, _ destination: String, inverse: String) -> String {
        #"<relationship name="\#(name)" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="\#(destination)" inverseName="\#(inverse)" inverseEntity="\#(destination)"/>"#
    }

    /// An optional to-many relationship with its inverse.
    static func toMany(_ name: String, _ destination: String, inverse: String) -> String {
        #"<relationship name="\#(name)" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="\#(destination)" inverseName="\#(inverse)" inverseEntity="\#(destination)"/>"#
    }

    // The members of version "Zoo"'s entities, for the changed versions to reuse.
    static let animalMembers = [
        attribute("name", "String"), attribute("legs", "Integer 16"), toOne("keeper", "Keeper", inverse: "animals"),
        toMany("fans", "Keeper", inverse: "favorite"), toMany("tags", "Tag", inverse: "animals"),
    ]
    static let birdMembers = [attribute("wingspan", "Double"), toMany("watchers", "Keeper", inverse: "bird")]
    static let penguinMembers = [attribute("colony", "String"), toMany("fishes", "Fish", inverse: "penguins")]
    static let fishMembers = [
        attribute("fins", "Integer 16"), toMany("carers", "Keeper", inverse: "fish"), toMany("penguins", "Penguin", inverse: "fishes"),
    ]
    static let keeperMembers = [
        attribute("name", "String"), toMany("animals", "Animal", inverse: "keeper"), toOne("favorite", "Animal", inverse: "fans"),
        toOne("bird", "Bird", inverse: "watchers"), toOne("fish", "Fish", inverse: "carers"),
    ]
    static let tagMembers = [attribute("label", "String"), toMany("animals", "Animal", inverse: "tags")]

    /// An entity element.
    static func entity(_ name: String, parent: String? = nil, abstract: Bool = false, members: [String]) -> String {
        var attributes = #"name="\#(name)" representedClassName="\#(name)""#
        if let parent { attributes += #" parentEntity="\#(parent)""# }
        if abstract { attributes += #" isAbstract="YES""# }
        return "<entity \(attributes) syncable=\"YES\">\n" + members.joined(separator: "\n") + "\n</entity>"
    }

    /// The entities of version "Zoo".
    static let version1: [String] = [
        entity("Animal", members: animalMembers), entity("Bird", parent: "Animal", members: birdMembers),
        entity("Penguin", parent: "Bird", members: penguinMembers), entity("Fish", parent: "Animal", members: fishMembers),
        entity("Keeper", members: keeperMembers), entity("Tag", members: tagMembers),
    ]

    /// Writes `Zoo.xcdatamodeld` with version "Zoo" and version "Zoo 2" (holding `changed`, the current
    /// version) into `folder` and loads it.
    static func bundle(in folder: URL, changed: [String]) throws -> LoadedBundle {
        let url = folder.appendingPathComponent("Zoo.xcdatamodeld")
        for (name, entities) in [("Zoo", version1), ("Zoo 2", changed)] {
            let version = url.appendingPathComponent("\(name).xcdatamodel")
            try FileManager.default.createDirectory(at: version, withIntermediateDirectories: true)
            let text = """
                <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
                <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
                \(entities.joined(separator: "\n"))
                </model>
                """
            try Data(text.utf8).write(to: version.appendingPathComponent("contents"))
        }
        let current = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>_XCCurrentVersionName</key><string>Zoo 2.xcdatamodel</string></dict></plist>
            """
        try Data(current.utf8).write(to: url.appendingPathComponent(".xccurrentversion"))
        return try LoadedBundle(url: url)
    }

    /// A store of version "Zoo" filled by SQL in Core Data's layout, worked out by hand:
    ///
    /// | ZANIMAL | Z_ENT | Z_OPT | name | legs | keeper | wingspan | colony | fins |
    /// |---|---|---|---|---|---|---|---|---|
    /// | 1 | 1 Animal | 1 | Rex | 4 | 1 | | | |
    /// | 2 | 2 Bird | 2 | Tweety | 2 | 1 | 0.25 | | |
    /// | 3 | 3 Penguin | 3 | Pingu | 2 | 2 | 0.5 | Ross | |
    /// | 4 | 4 Fish | 1 | Nemo | 0 | | | | 3 |
    ///
    /// Keepers: Ann (1) favorite Tweety (2, entity 2), bird Pingu (3, entity 3), fish Nemo (4; Fish has
    /// no sub-entity, so no entity column); Bob (2) favorite Nemo (4, entity 4), bird Tweety (2, entity 2). Tags: loud (1) on Tweety and Pingu; wet (2) on Nemo
    /// and Rex. Pingu's fishes: Nemo. `Z_MAX`: Animal 9 (objects 5–9 were deleted), Keeper 2, Tag 2.
    static func version1Store(in folder: URL, bundle: LoadedBundle) throws -> URL {
        let url = folder.appendingPathComponent("Zoo.sqlite")
        guard let model = bundle.version(named: "Zoo")?.model else { throw CocoaError(.fileReadUnknown) }
        _ = try SQLiteStore(model: model, url: url)
        let connection = try SQLiteConnection(path: url.path, mode: .readWrite)
        try connection.execute(
            """
            INSERT INTO ZANIMAL (Z_PK, Z_ENT, Z_OPT, ZNAME, ZLEGS, ZKEEPER, ZWINGSPAN, ZCOLONY, ZFINS) VALUES
                (1, 1, 1, 'Rex', 4, 1, NULL, NULL, NULL),
                (2, 2, 2, 'Tweety', 2, 1, 0.25, NULL, NULL),
                (3, 3, 3, 'Pingu', 2, 2, 0.5, 'Ross', NULL),
                (4, 4, 1, 'Nemo', 0, NULL, NULL, NULL, 3);
            INSERT INTO ZKEEPER (Z_PK, Z_ENT, Z_OPT, ZNAME, ZFAVORITE, Z1_FAVORITE, ZBIRD, Z2_BIRD, ZFISH) VALUES
                (1, 5, 1, 'Ann', 2, 2, 3, 3, 4),
                (2, 5, 1, 'Bob', 4, 4, 2, 2, NULL);
            INSERT INTO ZTAG (Z_PK, Z_ENT, Z_OPT, ZLABEL) VALUES (1, 6, 1, 'loud'), (2, 6, 1, 'wet');
            INSERT INTO Z_1TAGS (Z_1ANIMALS, Z_6TAGS) VALUES (2, 1), (3, 1), (4, 2), (1, 2);
            INSERT INTO Z_3FISHES (Z_3PENGUINS, Z_4FISHES) VALUES (3, 4);
            UPDATE Z_PRIMARYKEY SET Z_MAX = 9 WHERE Z_ENT = 1;
            UPDATE Z_PRIMARYKEY SET Z_MAX = 2 WHERE Z_ENT IN (5, 6);
            """)
        return url
    }
}
