// The fixture program of the end-to-end test: it is compiled with the entity classes and embedded
// models cdqi generates (--objects) for the Company, Developers and Library fixtures, and with the
// corpus targets (listed in `corpusChecks`), then run with the path of the Fixtures folder. It exits with status 1 and prints what failed when a check fails.

import CDQIModel
import CDQIStore
import CoreDataQueryInterface
import Foundation

var failures: [String] = []
var checks = 0

@MainActor func check(_ condition: @autoclosure () throws -> Bool, _ what: String, line: Int = #line) {
    checks += 1
    do {
        if try !condition() { failures.append("line \(line): \(what)") }
    } catch {
        failures.append("line \(line): \(what) threw \(error)")
    }
}

func entityName<T: Entity>(_ type: T.Type) -> String { T.cdqiEntityName }

let fixtures = URL(fileURLWithPath: CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : "Fixtures")
let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cdqi-objects-\(ProcessInfo.processInfo.processIdentifier)")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: folder) }

// 1. The embedded models equal the models read from the files, and have the same version hashes.
for (name, embedded) in [("Company", CompanyModel.model), ("Developers", DevelopersModel.model), ("Library", LibraryModel.model)] {
    let loaded = try ModelLoader().load(url: fixtures.appendingPathComponent("\(name).xcdatamodeld")).model
    check(embedded == loaded, "the embedded \(name) model equals the loaded one")
    let hashes = ModelVersionHashes(model: embedded), expected = ModelVersionHashes(model: loaded)
    check(hashes.entityHashes == expected.entityHashes && hashes.digest == expected.digest, "\(name) version hashes")
    check(hashes.entityHashes.count == loaded.entities.count, "\(name) has a hash per entity")
}

// 2. Company: insert, save, reopen, fetch, read typed values.
let companyURL = folder.appendingPathComponent("Company.sqlite")
let hired = Date(timeIntervalSinceReferenceDate: 600_000_000)
do {
    let container = try PersistentContainer(model: CompanyModel.self, url: companyURL)
    let context = container.viewContext
    let research = try context.insert(Department.self)
    research.name = "Research"
    research.budget = Decimal(string: "1234.56")
    let ann = try context.insert(Employee.self)
    ann.firstName = "Ann"
    ann.lastName = "Lee"
    ann.salary = 120_000
    ann.hireDate = hired
    let bob = try context.insert(Employee.self)
    bob.firstName = "Bob"
    bob.lastName = "Stone"
    bob.nickName = "Bobby"
    check(bob.salary == 0, "salary starts at the model default 0")
    bob.salary = 95_000
    research.addToEmployees(ann)
    bob.department = research
    check(research.employees == [ann, bob], "both setters maintained the inverse")
    check(ann.department === research, "addToEmployees set the inverse to-one")
    // TestEntity is manual in the model, but --objects gives it a class too.
    let sample = try context.insert(TestEntity.self)
    sample.binary = Data([1, 2, 3])
    sample.boolean = true
    sample.date = Date(timeIntervalSinceReferenceDate: 86_400)
    sample.decimal = Decimal(string: "0.07")
    sample.double = 2.5
    sample.float = 0.5
    sample.integer16 = -7
    sample.integer32 = 70_000
    sample.integer64 = 5_000_000_000
    sample.string = "it's"
    sample.uri = URL(string: "https://example.com/")
    sample.uuid = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")
    _ = try context.save()
    check(context.accessorErrors.isEmpty, "no accessor failed while writing")
}
do {
    let container = try PersistentContainer(model: CompanyModel.self, url: companyURL)
    let context = container.viewContext
    let employees = try context.fetch(FetchRequest(entityName: "Employee", sortDescriptors: [FetchSortDescriptor(keyPath: "lastName")]))
        .compactMap { $0 as? Employee }
    check(employees.count == 2, "two Employee instances fetched")
    check(employees.map(\.lastName) == ["Lee", "Stone"], "sorted by last name")
    check(employees.map(\.salary) == [120_000, 95_000], "salaries")
    check(employees.map(\.nickName) == [nil, "Bobby"], "nick names")
    check(employees.first?.hireDate == hired, "hire date")
    check(employees.first?.department?.name == "Research", "to-one after reopening")
    check(employees.first?.department?.budget == Decimal(string: "1234.56"), "decimal budget")
    check(employees.first?.department?.employees.count == 2, "to-many after reopening")
    let samples = try context.fetch(FetchRequest(entityName: "TestEntity")).compactMap { $0 as? TestEntity }
    check(samples.count == 1, "one TestEntity")
    if let sample = samples.first {
        check(sample.binary == Data([1, 2, 3]), "binary")
        check(sample.boolean == true, "boolean")
        check(sample.date == Date(timeIntervalSinceReferenceDate: 86_400), "date")
        check(sample.decimal == Decimal(string: "0.07"), "decimal")
        check(sample.double == 2.5 && sample.float == 0.5, "double and float")
        check(sample.integer16 == -7 && sample.integer32 == 70_000 && sample.integer64 == 5_000_000_000, "integers")
        check(sample.string == "it's", "string")
        check(sample.uri == URL(string: "https://example.com/"), "uri")
        check(sample.uuid == UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"), "uuid")
        check(sample.transformable == nil, "unset transformable")
    }
    check(entityName(Employee.self) == "Employee", "Employee queries entity Employee")
}

// 3. Developers: many-to-many from both sides.
do {
    let container = try PersistentContainer(model: DevelopersModel.self, url: nil)
    let context = container.viewContext
    let ada = try context.insert(Developer.self)
    ada.firstName = "Ada"
    ada.lastName = "Lovelace"
    let swift = try context.insert(Language.self)
    swift.name = "Swift"
    let compiler = try context.insert(Project.self)
    compiler.name = "Compiler"
    compiler.lead = ada
    compiler.addToMembers(ada)
    ada.addToLanguages(swift)
    check(ada.projects == [compiler] && ada.ledProjects == [compiler], "inverses of members and lead")
    check(swift.developers == [ada], "inverse of languages")
    _ = try context.save()
    compiler.removeFromMembers(ada)
    check(ada.projects.isEmpty, "removal updates the inverse")
}

// 4. Library: classes follow inheritance; ordered to-many; polymorphic fetch.
let libraryURL = folder.appendingPathComponent("Library.sqlite")
do {
    let container = try PersistentContainer(model: LibraryModel.self, url: libraryURL)
    let context = container.viewContext
    let tag = try context.insert(Tag.self)
    tag.name = "favourite"
    let shelf = try context.insert(Shelf.self)
    shelf.name = "Front"
    let book = try context.insert(Book.self)
    book.title = "Dune"
    book.isbn = "0441013597"
    book.createdAt = Date(timeIntervalSinceReferenceDate: 10)
    book.addToTags(tag)
    let album = try context.insert(Album.self)
    album.title = "Blue"
    album.createdAt = Date(timeIntervalSinceReferenceDate: 20)
    album.duration = 2_160.5
    album.addToTags(tag)
    check(album.trackCount == 1, "trackCount starts at the model default 1")
    album.trackCount = 10
    shelf.addToItems(book)
    shelf.insertIntoItems(album, at: 0)
    check(shelf.items.map(\.title) == ["Blue", "Dune"], "ordered insert")
    check(book.shelf === shelf, "ordered to-many maintains the inverse")
    _ = try context.save()
}
do {
    let container = try PersistentContainer(model: LibraryModel.self, url: libraryURL)
    let context = container.viewContext
    let items = try context.fetch(FetchRequest(entityName: "Item", sortDescriptors: [FetchSortDescriptor(keyPath: "title")]))
    check(items.count == 2, "two items")
    check(items.first is Album && items.last is Book, "a fetch of Item returns Album and Book instances")
    check((items.first as? Album)?.trackCount == 10, "album track count")
    check((items.first as? Media)?.duration == 2_160.5, "media duration, through the parent class")
    check((items.last as? Book)?.isbn == "0441013597", "book isbn")
    check(items.compactMap { ($0 as? Item)?.tags.count } == [1, 1], "inherited to-many")
    let shelves = try context.fetch(FetchRequest(entityName: "Shelf")).compactMap { $0 as? Shelf }
    check(shelves.first?.items.map(\.title) == ["Blue", "Dune"], "order after reopening")
    check(
        entityName(Album.self) == "Album" && entityName(Book.self) == "Book" && entityName(Item.self) == "Item",
        "sub-entity classes name their own entity through the root's conformance")
    check(context.accessorErrors.isEmpty, "no accessor failed while reading")
}

// 5. Every corpus model compiled with this program (CorpusChecks.swift, written by the test): its
// embedded model equals its model file and opens a store with its classes registered.
// A store that does not open is the store layer's problem (reported as a note, not a failure here).
for (label, problem) in corpusChecks {
    let found = problem()
    if let found, found.hasPrefix("store:") {
        print("note: corpus model \(label): \(found)")
        continue
    }
    check(found == nil, "corpus model \(label): \(found ?? "")")
}

if failures.isEmpty {
    print("objects round trip: ok (\(checks) checks; \(corpusChecks.count) corpus models)")
} else {
    print("objects round trip: \(failures.count) of \(checks) checks failed:\n" + failures.joined(separator: "\n"))
    exit(1)
}
