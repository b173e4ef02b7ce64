import Foundation
import Testing

/// `cdqi generate` end to end: finding the model, writing, skipping, forcing, merging and selecting.
@Suite struct GenerateCommandTests {
    @Test func writesOneFilePerEntityBesideTheModel() throws {
        let folder = try TemporaryFolder()
        try folder.copyFixture("Company.xcdatamodeld", into: "App/Model")
        let output = try CommandRunner.run(["Company"], in: folder.url)
        #expect(output.status == 0)
        // Department and Employee have codeGenerationType="class": their classes and the model that
        // registers them are written too; TestEntity is manual.
        #expect(
            folder.files(in: "App/Model") == [
                "Company.xcdatamodeld", "CompanyModel.swift", "Department.swift", "DepartmentAttribute.swift", "Employee.swift",
                "EmployeeAttribute.swift", "TestEntityAttribute.swift",
            ])
        #expect(output.standardOutput.split(separator: "\n").map { $0.hasPrefix("wrote ") } == Array(repeating: true, count: 6))
        let employeeClass = try #require(folder.contents("App/Model/Employee.swift"))
        #expect(employeeClass.contains("\nimport CDQIStore\n"))
        #expect(employeeClass.contains("\nnonisolated final class Employee: ManagedObject {"))
        #expect(folder.contents("App/Model/CompanyModel.swift")?.contains("\nnonisolated enum CompanyModel: GeneratedModel {") == true)
        let employee = try #require(folder.contents("App/Model/EmployeeAttribute.swift"))
        #expect(employee.contains("\nnonisolated final class EmployeeAttribute: EntityAttribute, Subqueryable {"))
        #expect(employee.contains("\nnonisolated extension Employee: Entity {"))
        // One warning, compiler-style, for the untyped transient attribute.
        let warnings = output.standardError.split(separator: "\n")
        #expect(warnings.count == 1)
        #expect(
            warnings.first?.hasSuffix(
                "Company.xcdatamodel/contents:29: warning: attribute 'scratch' of entity 'TestEntity' "
                    + "has no type (Undefined, as Xcode allows for transient attributes); no proxy property is generated because "
                    + "there is no value type to compare. Give it a type in the model to query it") == true)
    }

    @Test func swormWritesOneFileOfStructsAndTheModel() throws {
        let folder = try TemporaryFolder()
        try folder.copyFixture("Company.xcdatamodeld")
        let output = try CommandRunner.run(["Company", "--sworm", "-o", "Out"], in: folder.url)
        #expect(output.status == 0)
        // The structs, and the model built in code (under a fixed name the build plugin can declare).
        #expect(folder.files(in: "Out") == ["Company+Sworm.swift", "Company+SwormModel.swift"])
        #expect(folder.contents("Out/Company+SwormModel.swift")?.contains("nonisolated enum CompanyModel: GeneratedModel {") == true)
        let file = try #require(folder.contents("Out/Company+Sworm.swift"))
        #expect(file.contains("\nimport Foundation\nimport Sworm\n"))
        #expect(file.contains("\nextension Employee: ManagedObjectConvertible {\n    static let entityName = \"Employee\"\n"))
        #expect(file.contains("\n        let department = ToOneRelation<Department>(\"department\")\n"))
        // The Transformable attribute is left out, with a warning at its line.
        #expect(
            output.standardError.hasSuffix(
                "Company.xcdatamodel/contents:31: warning: attribute 'transformable' of entity "
                    + "'TestEntity' is Transformable, which Sworm cannot map; its struct leaves it out\n"))
    }

    @Test func existingFilesAreKeptUnlessForced() throws {
        let folder = try TemporaryFolder()
        try folder.copyFixture("Company.xcdatamodeld")
        #expect(try CommandRunner.run(["Company"], in: folder.url).status == 0)
        let employee = folder.url.appendingPathComponent("EmployeeAttribute.swift")
        try "// mine\n".write(to: employee, atomically: true, encoding: .utf8)

        let again = try CommandRunner.run(["Company"], in: folder.url)
        #expect(again.status == 0)
        #expect(folder.contents("EmployeeAttribute.swift") == "// mine\n")
        #expect(again.standardError.contains("EmployeeAttribute.swift: note: not overwritten because the file exists and differs; pass --force"))
        #expect(again.standardOutput.contains("unchanged \(folder.url.appendingPathComponent("DepartmentAttribute.swift").path)"))

        let forced = try CommandRunner.run(["Company", "-f"], in: folder.url)
        #expect(forced.status == 0)
        #expect(forced.standardOutput.contains("overwrote \(employee.path)"))
        #expect(folder.contents("EmployeeAttribute.swift")?.contains("class EmployeeAttribute") == true)
    }

    @Test func objectsWritesAClassForEveryEntity() throws {
        let folder = try TemporaryFolder()
        try folder.copyFixture("Developers.xcdatamodeld")
        let output = try CommandRunner.run(["Developers", "--objects", "-o", "Out"], in: folder.url)
        #expect(output.status == 0)
        #expect(
            folder.files(in: "Out") == [
                "Developer.swift", "DeveloperAttribute.swift", "DevelopersModel.swift", "Language.swift", "LanguageAttribute.swift",
                "Project.swift", "ProjectAttribute.swift",
            ])
        // Project.lead is a to-one to Developer, Project.members a to-many (attributes: deadline 0, name 1;
        // relationships: lead 0, members 1).
        let project = try #require(folder.contents("Out/Project.swift"))
        #expect(project.contains("    var lead: Developer? {\n        get { cdqiToOne(at: 0) as? Developer }"))
        #expect(project.contains("    var members: Set<Developer> {\n        get { Set(cdqiToMany(at: 1).compactMap { $0 as? Developer }) }"))
        #expect(project.contains("    func addToMembers(_ value: Developer) { cdqiAdd(value, toManyAt: 1) }"))
        #expect(output.standardError.isEmpty)
        // Merged: one file, with the imports of both parts.
        let merged = try CommandRunner.run(["Developers", "--objects", "-m", "-o", "Merged"], in: folder.url)
        #expect(merged.status == 0)
        #expect(folder.files(in: "Merged") == ["Developers+CDQI.swift"])
        #expect(
            folder.contents("Merged/Developers+CDQI.swift")?.contains(
                "import CDQIModel\nimport CDQIStore\nimport CoreDataQueryInterface\nimport Foundation\n") == true)
    }

    @Test func dryRunListsAndWritesNothing() throws {
        let folder = try TemporaryFolder()
        try folder.copyFixture("Developers.xcdatamodeld")
        let output = try CommandRunner.run(["Developers", "--dry-run", "-o", "Generated"], in: folder.url)
        #expect(output.status == 0)
        let out = folder.url.appendingPathComponent("Generated").path
        #expect(
            output.standardOutput == """
                would write \(out)/DeveloperAttribute.swift
                would write \(out)/LanguageAttribute.swift
                would write \(out)/ProjectAttribute.swift
                would write \(out)/DevelopersModel.swift

                """)
        #expect(folder.files() == ["Developers.xcdatamodeld"])
    }

    @Test func mergedPublicSelectionWithOptions() throws {
        let folder = try TemporaryFolder()
        try folder.copyFixture("Library.xcdatamodeld", into: "Models")
        let output = try CommandRunner.run(
            ["Library", "-i", "Models", "-o", "Out", "-m", "-p", "-s", "Proxy", "-n", "2", "-x", "Tag", "-x", "Shelf"],
            in: folder.url)
        #expect(output.status == 0)
        #expect(folder.files(in: "Out") == ["Library+CDQI.swift"])
        let text = try #require(folder.contents("Out/Library+CDQI.swift"))
        #expect(text.contains("public nonisolated final class AlbumProxy: MediaProxy {\n  public private(set) lazy var trackCount"))
        #expect(text.contains("public nonisolated class ItemProxy: EntityAttribute, Subqueryable {"))
        // Tag and Shelf are not written, but Item's relationships still name their proxies.
        #expect(!text.contains("class TagProxy"))
        #expect(text.contains("lazy var tags = TagProxy(key: \"tags\", parent: self)"))
        // …and the run says so, once per missing proxy.
        let notes = output.standardError.split(separator: "\n").filter { $0.contains(": note: ") }
        #expect(notes.count == 2)
        #expect(
            notes.first?.hasSuffix(
                "note: the proxies written refer to 'ShelfProxy' (entity 'Shelf'), which this run "
                    + "does not write; declare it elsewhere in the module or stop excluding 'Shelf'") == true)
        #expect(notes.last?.contains("'TagProxy' (entity 'Tag')") == true)
    }

    @Test func writeSelectsEntitiesAndModelVersionPicksAnOldVersion() throws {
        let folder = try TemporaryFolder()
        try folder.copyFixture("Library.xcdatamodeld")
        let output = try CommandRunner.run(["Library", "--model-version", "Library", "-w", "Book", "-w", "Shelf"], in: folder.url)
        #expect(output.status == 0)
        #expect(folder.files() == ["BookAttribute.swift", "Library.xcdatamodeld", "LibraryModel.swift", "ShelfAttribute.swift"])
        // Book's superclass ItemAttribute is neither written nor present: one note says so.
        #expect(output.standardError.split(separator: "\n").filter { $0.contains("note:") }.count == 1)
        #expect(output.standardError.contains("refer to 'ItemAttribute' (entity 'Item')"))
        // Version 1 has `addedAt` where version 2 has `createdAt`.
        let book = try #require(folder.contents("BookAttribute.swift"))
        #expect(book.hasPrefix("// Generated by cdqi from the Library model (version Library)."))
        let shelf = try #require(folder.contents("ShelfAttribute.swift"))
        #expect(!shelf.contains("lastReviewedAt"))

        let missing = try CommandRunner.run(["Library", "--model-version", "Library 9"], in: folder.url)
        #expect(missing.status == 1)
        #expect(missing.standardError.contains("error: model version 'Library 9' is not in the bundle"))
    }

    @Test func severalModelsWithTheNameAreAnErrorListingThem() throws {
        let folder = try TemporaryFolder()
        try folder.copyFixture("Company.xcdatamodeld", into: "One")
        try folder.copyFixture("Company.xcdatamodeld", into: "Two")
        let output = try CommandRunner.run(["Company"], in: folder.url)
        #expect(output.status == 1)
        let one = folder.url.appendingPathComponent("One/Company.xcdatamodeld").standardizedFileURL.path
        let two = folder.url.appendingPathComponent("Two/Company.xcdatamodeld").standardizedFileURL.path
        #expect(output.standardError.contains("error: 2 models are named 'Company': \(one), \(two);"))
        #expect(folder.files(in: "One") == ["Company.xcdatamodeld"])
    }

    @Test func hiddenFoldersAreNotSearched() throws {
        let folder = try TemporaryFolder()
        try folder.copyFixture("Company.xcdatamodeld", into: "Visible")
        try folder.copyFixture("Company.xcdatamodeld", into: ".build/checkouts")
        let output = try CommandRunner.run(["Company", "--dry-run"], in: folder.url)
        #expect(output.status == 0)
        #expect(output.standardOutput.contains("would write \(folder.url.path)/Visible/EmployeeAttribute.swift"))
        #expect(!output.standardOutput.contains(".build"))
    }

    @Test func aBareVersionFolderOrAPathIsAccepted() throws {
        let folder = try TemporaryFolder()
        let bundle = try folder.copyFixture("Developers.xcdatamodeld")
        let bare = folder.url.appendingPathComponent("Solo.xcdatamodel")
        try FileManager.default.copyItem(at: bundle.appendingPathComponent("Developers.xcdatamodel"), to: bare)
        try FileManager.default.removeItem(at: bundle)

        let byName = try CommandRunner.run(["Solo", "--dry-run"], in: folder.url)
        #expect(byName.status == 0)
        #expect(byName.standardOutput.contains("would write \(folder.url.path)/DeveloperAttribute.swift"))

        let byPath = try CommandRunner.run([bare.path, "-m", "-o", folder.url.appendingPathComponent("out").path])
        #expect(byPath.status == 0)
        #expect(folder.files(in: "out") == ["Solo+CDQI.swift"])
    }
}
