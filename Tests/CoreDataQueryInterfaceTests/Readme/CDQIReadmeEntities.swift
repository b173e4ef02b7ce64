import CDQIModel
import CDQIStore
import CoreDataQueryInterface
import Foundation

// The entity classes and proxies CDQI's README uses (Developer, Language, Project), written as
// `cdqi generate` writes them, for `CDQIReadmeTests`. Their model is `Fixtures/Developers.xcdatamodeld`
// plus the one relationship the README's examples use and the fixture lacks: `Project.languages`
// (to-many, inverse `Language.projects`), added by `CDQIReadmeData.model()`.

nonisolated final class DeveloperAttribute: EntityAttribute, Subqueryable {
    private(set) lazy var firstName = StringAttribute(key: "firstName", parent: self)
    private(set) lazy var lastName = StringAttribute(key: "lastName", parent: self)
    private(set) lazy var nickName = StringAttribute(key: "nickName", parent: self)
    private(set) lazy var languages = LanguageAttribute(key: "languages", parent: self)
    private(set) lazy var ledProjects = ProjectAttribute(key: "ledProjects", parent: self)
    private(set) lazy var projects = ProjectAttribute(key: "projects", parent: self)
}

nonisolated final class LanguageAttribute: EntityAttribute, Subqueryable {
    private(set) lazy var name = StringAttribute(key: "name", parent: self)
    private(set) lazy var developers = DeveloperAttribute(key: "developers", parent: self)
    private(set) lazy var projects = ProjectAttribute(key: "projects", parent: self)
}

nonisolated final class ProjectAttribute: EntityAttribute, Subqueryable {
    private(set) lazy var deadline = DateAttribute(key: "deadline", parent: self)
    private(set) lazy var name = StringAttribute(key: "name", parent: self)
    private(set) lazy var languages = LanguageAttribute(key: "languages", parent: self)
    private(set) lazy var lead = DeveloperAttribute(key: "lead", parent: self)
    private(set) lazy var members = DeveloperAttribute(key: "members", parent: self)
}

nonisolated final class Developer: ManagedObject {
    var firstName: String { ((try? value(forKey: "firstName")) as? String) ?? "" }
}

nonisolated final class Language: ManagedObject {}

nonisolated final class Project: ManagedObject {}

nonisolated extension Developer: Entity {
    typealias CDQIAttribute = DeveloperAttribute
}

nonisolated extension Language: Entity {
    typealias CDQIAttribute = LanguageAttribute
}

nonisolated extension Project: Entity {
    typealias CDQIAttribute = ProjectAttribute
}

/// The README's data, made by hand:
///
/// | developer           | languages            |
/// | ------------------- | -------------------- |
/// | Haskell Curry       | Haskell              |
/// | Chris Lattner       | Swift, C, Rust       |
/// | Graydon Hoare       | Rust, C              |
/// | Ada Lovelace        | Swift, Haskell, Python |
/// | Guido Rossum        | Python               |
/// | Simon Peyton Jones  | Haskell, C, Rust     |
///
/// | project  | languages |
/// | -------- | --------- |
/// | Vapor    | Swift     |
/// | Compiler | Swift, C  |
/// | Servo    | Rust      |
/// | Pandoc   | Haskell   |
/// | Kitura   | Swift     |
enum CDQIReadmeData {
    /// The Developers fixture with `Project.languages` ↔ `Language.projects` added, loaded from a
    /// scratch copy (the fixture itself is left as it is).
    static func model() throws -> ManagedObjectModel {
        let fixture = FixtureData.packageRoot.appendingPathComponent("Fixtures/Developers.xcdatamodeld/Developers.xcdatamodel/contents")
        var text = try String(contentsOf: fixture, encoding: .utf8)
        let languageEnd = #"inverseName="languages" inverseEntity="Developer"/>"#
        let projectStart = #"<relationship name="lead""#
        guard text.contains(languageEnd), text.contains(projectStart) else {
            throw FixtureData.SetupError(description: "the Developers fixture no longer has Language.developers or Project.lead")
        }
        text = text.replacingOccurrences(
            of: languageEnd,
            with: languageEnd + "\n        "
                + #"<relationship name="projects" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Project" inverseName="languages" inverseEntity="Project"/>"#
        )
        text = text.replacingOccurrences(
            of: projectStart,
            with:
                #"<relationship name="languages" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Language" inverseName="projects" inverseEntity="Language"/>"#
                + "\n        " + projectStart)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cdqi-readme-\(UUID())")
        let version = directory.appendingPathComponent("Developers.xcdatamodeld/Developers.xcdatamodel")
        try FileManager.default.createDirectory(at: version, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try text.write(to: version.appendingPathComponent("contents"), atomically: true, encoding: .utf8)
        return try ModelLoader().load(url: directory.appendingPathComponent("Developers.xcdatamodeld")).model
    }

    /// A saved in-memory store holding the table above, with the classes registered, and a context.
    static func context() throws -> (PersistentContainer, ManagedObjectContext) {
        let container = try PersistentContainer(model: try model(), url: nil)
        container.coordinator.register(Developer.self, forEntityName: "Developer")
        container.coordinator.register(Language.self, forEntityName: "Language")
        container.coordinator.register(Project.self, forEntityName: "Project")
        let context = container.newContext()
        var languages: [String: ManagedObject] = [:]
        for name in ["Swift", "Rust", "Haskell", "C", "Python"] {
            let language = try context.insertNewObject(forEntityName: "Language")
            try language.setValue(name, forKey: "name")
            languages[name] = language
        }
        let developers: [(String, String, [String])] = [
            ("Haskell", "Curry", ["Haskell"]),
            ("Chris", "Lattner", ["Swift", "C", "Rust"]),
            ("Graydon", "Hoare", ["Rust", "C"]),
            ("Ada", "Lovelace", ["Swift", "Haskell", "Python"]),
            ("Guido", "Rossum", ["Python"]),
            ("Simon", "Peyton Jones", ["Haskell", "C", "Rust"]),
        ]
        for (first, last, spoken) in developers {
            let developer = try context.insertNewObject(forEntityName: "Developer")
            try developer.setValue(first, forKey: "firstName")
            try developer.setValue(last, forKey: "lastName")
            try developer.setValue(spoken.compactMap { languages[$0] }, forKey: "languages")
        }
        let projects: [(String, [String])] = [
            ("Vapor", ["Swift"]), ("Compiler", ["Swift", "C"]), ("Servo", ["Rust"]), ("Pandoc", ["Haskell"]), ("Kitura", ["Swift"]),
        ]
        for (name, written) in projects {
            let project = try context.insertNewObject(forEntityName: "Project")
            try project.setValue(name, forKey: "name")
            try project.setValue(written.compactMap { languages[$0] }, forKey: "languages")
        }
        _ = try context.save()
        return (container, context)
    }
}
