import CDQIModel
import CDQIStore
import Foundation
import Testing

@testable import CDQIInterchange

/// An import saves in batches inside one transaction when its document is larger than a batch: the store
/// it gives is the one a single save gives (same objects, keys, relationships and order, every row
/// written once), forward references resolve, and a batch the store refuses leaves the store as it was,
/// with the problems a single save reports.
@Suite struct BatchedImportTests {
    /// Imports `json` from a file with batches of `batchSize` objects.
    @discardableResult
    private func importFile(
        _ json: String, model: ManagedObjectModel, into store: URL, batchSize: Int, folder: InterchangeTestSupport.Folder
    ) throws -> ImportSummary {
        let document = folder.file("document-\(UUID().uuidString).json")
        try Data(json.utf8).write(to: document)
        var importer = StoreImporter(model: model)
        importer.batchSize = batchSize
        return try importer.importDocument(contentsOf: document, into: store)
    }

    /// The store files of the folder (not the documents) that hold data: not the -shm index, not an
    /// empty -wal (SQLite's to create and remove as connections come and go).
    private func storeData(_ folder: InterchangeTestSupport.Folder) throws -> [String: Data] {
        try folder.snapshot().filter {
            !$0.key.hasPrefix("document-") && !$0.key.hasSuffix("-shm") && !($0.key.hasSuffix("-wal") && $0.value.isEmpty)
        }
    }

    private func plan(_ json: String, model: ManagedObjectModel) throws -> ImportPlan {
        try DocumentReader(model: model).read(BytesDocumentSource(Array(json.utf8))).get()
    }

    /// How many rows of the store's tables have a `Z_OPT` other than 1 (a row written more than once).
    private func rewrittenRows(_ store: URL) throws -> Int {
        let connection = try SQLiteConnection(path: store.path, mode: .readOnly)
        let tables = try connection.prepareUncached("SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE '%Z_OPT%'")
        var names: [String] = []
        while try tables.step() { names.append(tables.string(0)) }
        var count = 0
        for name in names {
            let statement = try connection.prepareUncached("SELECT count(*) FROM \(name) WHERE Z_OPT IS NOT 1")
            if try statement.step() { count += Int(statement.int64(0)) }
        }
        return count
    }

    // MARK: Company: employees before their departments

    /// 40 employees listed before the departments they name (forward references); employee k (from 0)
    /// is in department k % 5 when that is below 4, else in none, except e7, which names none and is the
    /// one employee d4 lists. Department d1 also lists its employees (both sides, as an export writes
    /// them).
    static let company: String = {
        var employees: [String] = []
        for index in 0..<40 {
            let department = index % 5 < 4 ? "\"d\(index % 5)\"" : "null"
            let named = index == 7 ? "" : ", \"department\": \(department)"
            employees.append("{\"_id\": \"e\(index)\", \"firstName\": \"F\(index)\", \"lastName\": \"L\(index)\", \"salary\": \(index * 100)\(named)}")
        }
        let d1 = (0..<40).filter { $0 % 5 == 1 }.map { "\"e\($0)\"" }.joined(separator: ", ")
        let departments = [
            "{\"_id\": \"d0\", \"name\": \"Zero\"}",
            "{\"_id\": \"d1\", \"name\": \"One\", \"employees\": [\(d1)]}",
            "{\"_id\": \"d2\", \"name\": \"Two\"}",
            "{\"_id\": \"d3\", \"name\": \"Three\", \"budget\": \"12.50\"}",
            "{\"_id\": \"d4\", \"name\": \"Four\", \"employees\": [\"e7\"]}",
        ]
        return "{\"Employee\": [\n" + employees.joined(separator: ",\n") + "\n], \"Department\": [\n" + departments.joined(separator: ",\n") + "\n]}"
    }()

    @Test(arguments: [1, 2, 3, 7, 16])
    func companyInBatchesIsTheStoreOfOneSave(batchSize: Int) throws {
        let model = try InterchangeTestSupport.model("Company")
        #expect(try ImportBatches(plan(Self.company, model: model), model: model, batchSize: batchSize).starts.count > 1)
        let folder = try InterchangeTestSupport.Folder()
        let single = folder.file("single.sqlite"), batched = folder.file("batched.sqlite")
        try importFile(Self.company, model: model, into: single, batchSize: .max, folder: folder)
        let summary = try importFile(Self.company, model: model, into: batched, batchSize: batchSize, folder: folder)
        #expect(summary.description == "imported 45 objects: 40 Employee, 5 Department")
        let exported = try InterchangeTestSupport.export(model: model, from: batched)
        #expect(exported == (try InterchangeTestSupport.export(model: model, from: single)))
        #expect(try rewrittenRows(batched) == 0)

        // Worked out from the document: keys follow it, e7 is in d4 through d4's list only.
        let objects = try InterchangeTestSupport.objects(in: exported)
        for index in 0..<40 {
            let employee = try #require(objects["Employee"]?["Employee/\(index + 1)"])
            #expect(employee["lastName"] == .string("L\(index)"))
            let department: Int? = index == 7 ? 4 : (index % 5 < 4 ? index % 5 : nil)
            #expect(employee["department"] == (department.map { .string("Department/\($0 + 1)") } ?? .null))
        }
        let two = try #require(objects["Department"]?["Department/3"])
        #expect(
            two["employees"]
                == .array(["Employee/3", "Employee/13", "Employee/18", "Employee/23", "Employee/28", "Employee/33", "Employee/38"].map { .string($0) }))
        #expect(objects["Department"]?["Department/4"]?["budget"] == .string("12.5"))
        #expect(objects["Department"]?["Department/5"]?["employees"] == .array([.string("Employee/8")]))
    }

    @Test(arguments: [1, 3])
    func companyRoundTripsThroughBatchedImports(batchSize: Int) throws {
        let model = try InterchangeTestSupport.model("Company")
        let folder = try InterchangeTestSupport.Folder()
        try importFile(Self.company, model: model, into: folder.file("a.sqlite"), batchSize: batchSize, folder: folder)
        let first = try InterchangeTestSupport.export(model: model, from: folder.file("a.sqlite"))
        try importFile(first, model: model, into: folder.file("b.sqlite"), batchSize: batchSize, folder: folder)
        #expect(try InterchangeTestSupport.export(model: model, from: folder.file("b.sqlite")) == first)
        #expect(try rewrittenRows(folder.file("b.sqlite")) == 0)
    }

    // MARK: Library: inheritance, an ordered to-many, many-to-many with counts, uniqueness

    /// Albums, then books (one key counter: the Item hierarchy), before the shelves and tags they name.
    /// Shelf s0 lists its items in its own order; s1 lists none (its items name it); the last book has a
    /// tag, which lists nothing.
    static let library: String = {
        var albums: [String] = []
        for index in 0..<9 {
            let shelf = index % 3 == 2 ? "null" : "\"s\(index % 2)\""
            albums.append(
                "{\"_id\": \"a\(index)\", \"title\": \"Album \(index)\", \"createdAt\": \"2024-01-0\(index + 1)T00:00:00Z\", \"trackCount\": \(index + 1), \"shelf\": \(shelf)}"
            )
        }
        var books: [String] = []
        for index in 0..<8 {
            let shelf = index % 2 == 0 ? "\"s0\"" : "\"s1\""
            let tags = index == 7 ? ", \"tags\": [\"t0\"]" : ""
            books.append(
                "{\"_id\": \"b\(index)\", \"title\": \"Book \(index)\", \"createdAt\": \"2023-05-0\(index + 1)\", \"isbn\": \"978000000000\(index)\", \"shelf\": \(shelf)\(tags)}"
            )
        }
        // s0's items: albums 0, 4, 6 (even, shelf s0: index % 2 == 0 and index % 3 != 2) and the even books.
        let s0 = ["b6", "a4", "b0", "a0", "b4", "a6", "b2"].map { "\"\($0)\"" }.joined(separator: ", ")
        return """
            {"Album": [\(albums.joined(separator: ",\n"))],
             "Book": [\(books.joined(separator: ",\n"))],
             "Shelf": [{"_id": "s0", "name": "Zero", "items": [\(s0)]}, {"_id": "s1", "name": "One"}],
             "Tag": [{"_id": "t0", "name": "Rare"}]}
            """
    }()

    @Test(arguments: [1, 2, 5])
    func libraryInBatchesIsTheStoreOfOneSaveAndRoundTrips(batchSize: Int) throws {
        let model = try InterchangeTestSupport.model("Library")
        let folder = try InterchangeTestSupport.Folder()
        let single = folder.file("single.sqlite"), batched = folder.file("batched.sqlite")
        try importFile(Self.library, model: model, into: single, batchSize: .max, folder: folder)
        try importFile(Self.library, model: model, into: batched, batchSize: batchSize, folder: folder)
        let exported = try InterchangeTestSupport.export(model: model, from: batched)
        #expect(exported == (try InterchangeTestSupport.export(model: model, from: single)))
        #expect(try rewrittenRows(batched) == 0)

        // Albums take Item keys 1–9, books 10–17. s0 keeps its listed order; s1's items follow the
        // document: albums 1, 3, 7, then books 1, 3, 5, 7.
        let objects = try InterchangeTestSupport.objects(in: exported)
        #expect(objects["Book"]?["Book/10"]?["title"] == .string("Book 0"))
        #expect(objects["Album"]?["Album/9"]?["title"] == .string("Album 8"))
        #expect(
            objects["Shelf"]?["Shelf/1"]?["items"]
                == .array(["Book/16", "Album/5", "Book/10", "Album/1", "Book/14", "Album/7", "Book/12"].map { .string($0) }))
        #expect(
            objects["Shelf"]?["Shelf/2"]?["items"]
                == .array(["Album/2", "Album/4", "Album/8", "Book/11", "Book/13", "Book/15", "Book/17"].map { .string($0) }))
        #expect(objects["Tag"]?["Tag/1"]?["items"] == .array([.string("Book/17")]))

        // The export (both sides of every relationship) round-trips through a batched import.
        let again = folder.file("again.sqlite")
        try importFile(exported, model: model, into: again, batchSize: batchSize, folder: folder)
        #expect(try InterchangeTestSupport.export(model: model, from: again) == exported)
        #expect(try rewrittenRows(again) == 0)
    }

    // MARK: Refused batches

    /// Every problem of the document, as one save reports it, and the store's files unchanged.
    @Test(arguments: [1, 4])
    func aRefusedLaterBatchChangesNothingAndReportsWhatOneSaveReports(batchSize: Int) throws {
        let model = try InterchangeTestSupport.model("Company")
        let folder = try InterchangeTestSupport.Folder()
        let store = folder.file("company.sqlite")
        try importFile(#"{"Department": [{"_id": "d", "name": "Kept"}]}"#, model: model, into: store, batchSize: batchSize, folder: folder)
        let before = try storeData(folder)
        // e25 and e33 have no last name (required): the save of their batch refuses them.
        let employees = (0..<40).map { index in
            let last = index == 25 || index == 33 ? "" : ", \"lastName\": \"L\(index)\""
            return "{\"_id\": \"e\(index)\", \"firstName\": \"F\"\(last), \"department\": \"d\(index % 2)\"}"
        }
        let document =
            "{\"Department\": [{\"_id\": \"d0\", \"name\": \"A\"}, {\"_id\": \"d1\", \"name\": \"B\"}], \"Employee\": [\(employees.joined(separator: ", "))]}"
        #expect(try ImportBatches(plan(document, model: model), model: model, batchSize: batchSize).starts.count > 1)
        for target in [store, folder.file("new.sqlite")] {
            do {
                try importFile(document, model: model, into: target, batchSize: batchSize, folder: folder)
                Issue.record("a document with two employees without a last name was imported")
            } catch let error as InterchangeError {
                guard case .invalidDocument(let problems) = error else {
                    Issue.record("\(error)")
                    continue
                }
                #expect(
                    problems.map(\.description) == [
                        #"Employee "e25", key 'lastName': a value is required"#, #"Employee "e33", key 'lastName': a value is required"#,
                    ])
            }
        }
        #expect(try storeData(folder) == before)
    }

    @Test func aUniquenessConflictAcrossBatchesNamesBothObjects() throws {
        let model = try InterchangeTestSupport.model("Developers")
        let folder = try InterchangeTestSupport.Folder()
        let languages = (0..<12).map { "{\"_id\": \"l\($0)\", \"name\": \"\($0 == 9 ? "Lang 1" : "Lang \($0)")\"}" }
        let document = "{\"Language\": [\(languages.joined(separator: ", "))]}"
        #expect(try ImportBatches(plan(document, model: model), model: model, batchSize: 2).starts.count > 1)
        do {
            try importFile(document, model: model, into: folder.file("d.sqlite"), batchSize: 2, folder: folder)
            Issue.record("two languages named Lang 1 were imported")
        } catch let error as InterchangeError {
            guard case .invalidDocument(let problems) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(!problems.isEmpty)
            for problem in problems.map(\.description) {
                #expect(
                    problem == #"Language "l1", key 'name': Language "l9" has the same name (a uniqueness constraint)"#
                        || problem == #"Language "l9", key 'name': Language "l1" has the same name (a uniqueness constraint)"#,
                    "\(problem)")
            }
        }
        #expect(try storeData(folder).isEmpty)
    }

    // MARK: Reading the file

    /// A syntax error after thousands of good objects (many chunks in) is the only error, with its line
    /// and column, even when objects before it have problems of their own.
    @Test func aLateSyntaxErrorIsReportedAloneWithItsPlace() throws {
        let model = try InterchangeTestSupport.model("Company")
        let folder = try InterchangeTestSupport.Folder()
        let store = folder.file("company.sqlite")
        try importFile(#"{"Department": [{"_id": "d", "name": "Kept"}]}"#, model: model, into: store, batchSize: 100, folder: folder)
        let before = try storeData(folder)
        // Line 1 is `{"Employee": [`, employees are lines 2–5001 (the first has an unknown key), and line
        // 5002 is `  {"_id": "bad", "firstName": "A", "lastName": B}`: B is the 48th character.
        var lines = ["{\"Employee\": ["]
        lines.append("  {\"_id\": \"e0\", \"firstName\": \"A\", \"lastName\": \"B\", \"salry\": 1},")
        for index in 1..<5000 { lines.append("  {\"_id\": \"e\(index)\", \"firstName\": \"Åsa\", \"lastName\": \"Ørsted \(index)\"},") }
        lines.append("  {\"_id\": \"bad\", \"firstName\": \"A\", \"lastName\": B}")
        lines.append("]}")
        do {
            try importFile(lines.joined(separator: "\n"), model: model, into: store, batchSize: 100, folder: folder)
            Issue.record("a document with a syntax error was imported")
        } catch let error as InterchangeError {
            #expect(error.description == "the document is not valid JSON: line 5002, column 48: unexpected character; expected a value")
        }
        #expect(try storeData(folder) == before)
    }

    @Test(arguments: BadDocumentTests.cases)
    func aFileGivesTheProblemsOfTheSameDocumentInMemory(_ bad: BadDocumentTests.Case) throws {
        let model = try InterchangeTestSupport.model("Company")
        let folder = try InterchangeTestSupport.Folder()
        do {
            try importFile(bad.document, model: model, into: folder.file("new.sqlite"), batchSize: 1, folder: folder)
            Issue.record("the import of '\(bad.name)' succeeded")
        } catch let error as InterchangeError {
            guard case .invalidDocument(let problems) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(problems.map(\.description) == bad.problems)
        }
        #expect(try storeData(folder).isEmpty)
    }

    @Test func anUnreadableFileIsRefusedBeforeAnyStoreIsMade() throws {
        let model = try InterchangeTestSupport.model("Company")
        let folder = try InterchangeTestSupport.Folder()
        #expect(throws: InterchangeError.self) {
            try StoreImporter(model: model).importDocument(contentsOf: folder.file("missing.json"), into: folder.file("s.sqlite"))
        }
        #expect(throws: InterchangeError.self) { try StoreImporter(model: model).check(contentsOf: folder.url) }
        #expect(try folder.snapshot().isEmpty)
    }
}
