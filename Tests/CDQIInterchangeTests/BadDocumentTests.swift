import CDQIInterchange
import CDQIModel
import Foundation
import Testing

/// Every kind of bad document fails with a message naming the entity, the object and the key, and
/// leaves the store byte for byte as it was (or, when the store did not exist, leaves no file).
@Suite struct BadDocumentTests {
    static let seed = """
        {"Department": [{"_id": "d1", "name": "Sales"}], "Employee": [{"_id": "e1", "firstName": "Jane", "lastName": "Doe", "department": "d1"}]}
        """

    struct Case: Sendable, CustomStringConvertible {
        var name: String
        var document: String
        /// The problems expected, in order.
        var problems: [String]
        var description: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "unknown entity", document: #"{"Ghost": [{"_id": "g"}]}"#,
            problems: ["Ghost: the model has no such entity (entities: Department, Employee, TestEntity)"]),
        Case(
            name: "unknown key", document: #"{"Employee": [{"_id": "e1", "firstName": "A", "lastName": "B", "salry": 5}]}"#,
            problems: [
                #"Employee "e1", key 'salry': entity Employee has no such attribute or relationship (it has: firstName, hireDate, lastName, nickName, salary, department)"#
            ]),
        Case(
            name: "wrong type", document: #"{"Employee": [{"_id": "e1", "firstName": "A", "lastName": "B", "salary": "lots"}]}"#,
            problems: [#"Employee "e1", key 'salary': Integer 32 takes an integer, not a string"#]),
        Case(
            name: "integer out of range", document: #"{"Employee": [{"_id": "e1", "firstName": "A", "lastName": "B", "salary": 3000000000}]}"#,
            problems: [#"Employee "e1", key 'salary': 3000000000 does not fit Integer 32 (-2147483648…2147483647)"#]),
        Case(
            name: "fraction for an integer", document: #"{"Employee": [{"_id": "e1", "firstName": "A", "lastName": "B", "salary": 1.5}]}"#,
            problems: [#"Employee "e1", key 'salary': Integer 32 takes an integer, not 1.5"#]),
        Case(
            name: "dangling reference", document: #"{"Employee": [{"_id": "e1", "firstName": "A", "lastName": "B", "department": "d9"}]}"#,
            problems: [#"Employee "e1", key 'department': no object in the document has the _id "d9""#]),
        Case(
            name: "duplicate _id",
            document: #"{"Employee": [{"_id": "e1", "firstName": "A", "lastName": "B"}, {"_id": "e1", "firstName": "C", "lastName": "D"}]}"#,
            problems: [#"Employee "e1", key '_id': the _id is used twice (also by Employee #1)"#]),
        Case(
            name: "required value missing (refused by the save's validation)",
            document: #"{"Employee": [{"_id": "e1", "firstName": "A"}]}"#,
            problems: [#"Employee "e1", key 'lastName': a value is required"#]),
        Case(
            name: "reference to the wrong entity",
            document:
                #"{"Employee": [{"_id": "e1", "firstName": "A", "lastName": "B", "department": "e2"}, {"_id": "e2", "firstName": "C", "lastName": "D"}]}"#,
            problems: [#"Employee "e1", key 'department': "e2" is an object of entity Employee, and the relationship holds Department objects"#]),
        Case(
            name: "inverse sides disagree",
            document:
                #"{"Department": [{"_id": "d1", "name": "X", "employees": []}], "Employee": [{"_id": "e1", "firstName": "A", "lastName": "B", "department": "d1"}]}"#,
            problems: [#"Employee "e1", key 'department': names Department "d1", whose inverse 'employees' does not name this object back"#]),
        Case(
            name: "bad date", document: #"{"Employee": [{"_id": "e1", "firstName": "A", "lastName": "B", "hireDate": "yesterday"}]}"#,
            problems: [#"Employee "e1", key 'hireDate': "yesterday" is not an ISO 8601 date (write 2024-03-01T09:30:00Z, or a date with an offset)"#]),
        Case(
            name: "impossible day", document: #"{"Employee": [{"_id": "e1", "firstName": "A", "lastName": "B", "hireDate": "2023-02-29T00:00:00Z"}]}"#,
            problems: [#"Employee "e1", key 'hireDate': "2023-02-29T00:00:00Z" is not an ISO 8601 date (write 2024-03-01T09:30:00Z, or a date with an offset)"#]
        ),
        Case(
            name: "bad base64", document: #"{"TestEntity": [{"_id": "t", "binary": "%%%"}]}"#,
            problems: [#"TestEntity "t", key 'binary': the text is not valid base64"#]),
        Case(
            name: "bad UUID", document: #"{"TestEntity": [{"_id": "t", "uuid": "nope"}]}"#,
            problems: [#"TestEntity "t", key 'uuid': "nope" is not a UUID"#]),
        Case(
            name: "bad decimal", document: #"{"TestEntity": [{"_id": "t", "decimal": "12abc"}]}"#,
            problems: [#"TestEntity "t", key 'decimal': "12abc" is not a decimal number"#]),
        Case(
            name: "transient attribute", document: #"{"TestEntity": [{"_id": "t", "scratch": 1}]}"#,
            problems: [#"TestEntity "t", key 'scratch': the attribute is transient (never stored), so it cannot be imported"#]),
        Case(
            name: "to-many given one reference", document: #"{"Department": [{"_id": "d1", "name": "X", "employees": "e1"}]}"#,
            problems: [#"Department "d1", key 'employees': a to-many relationship takes an array of _ids, not a string"#]),
        Case(
            name: "object without _id named by position",
            document: #"{"Employee": [{"_id": "e1", "firstName": "A", "lastName": "B"}, {"firstName": 5, "lastName": "B"}]}"#,
            problems: [#"Employee #2, key 'firstName': String takes a string, not a number"#]),
        Case(
            name: "several problems at once",
            document: #"{"Employee": [{"_id": "e1", "firstName": true, "lastName": "B", "salary": "x"}], "Nope": []}"#,
            problems: [
                #"Employee "e1", key 'firstName': String takes a string, not a boolean"#,
                #"Employee "e1", key 'salary': Integer 32 takes an integer, not a string"#,
                "Nope: the model has no such entity (entities: Department, Employee, TestEntity)",
            ]),
        Case(
            name: "not an object", document: "[]",
            problems: ["the document must be an object whose keys are entity names, not an array"]),
        Case(
            name: "entity list not an array", document: #"{"Employee": {"_id": "e1"}}"#,
            problems: ["Employee: expected an array of objects, not an object"]),
    ]

    /// The files that hold data: every file but the -shm index and an empty -wal (both SQLite's to
    /// create and remove as connections come and go).
    private static func data(_ snapshot: [String: Data]) -> [String: Data] {
        snapshot.filter { !$0.key.hasSuffix("-shm") && !($0.key.hasSuffix("-wal") && $0.value.isEmpty) }
    }

    private func problems(of error: InterchangeError) -> [String]? {
        if case .invalidDocument(let problems) = error { return problems.map(\.description) }
        return nil
    }

    @Test(arguments: cases)
    func failsWithTheProblemAndLeavesTheStoreUnchanged(_ bad: Case) throws {
        let model = try InterchangeTestSupport.model("Company")
        let folder = try InterchangeTestSupport.Folder()
        let store = folder.file("company.sqlite")
        try InterchangeTestSupport.importJSON(Self.seed, model: model, into: store)
        let before = try folder.snapshot()
        let exportBefore = try InterchangeTestSupport.export(model: model, from: store)
        // The export opened the store read-only: the data is unchanged, though SQLite may have left an
        // empty -wal (and its -shm) beside the WAL store, which a read-only connection does not remove.
        let settled = try folder.snapshot()
        #expect(Self.data(settled) == Self.data(before))

        do {
            try InterchangeTestSupport.importJSON(bad.document, model: model, into: store)
            Issue.record("the import of '\(bad.name)' succeeded")
        } catch let error as InterchangeError {
            #expect(problems(of: error) == bad.problems)
            #expect(error.description.hasPrefix("the document does not fit the model ("))
            #expect(error.description.contains("nothing was imported"))
        }
        #expect(Self.data(try folder.snapshot()) == Self.data(settled))
        #expect(try InterchangeTestSupport.export(model: model, from: store) == exportBefore)
    }

    @Test(arguments: cases)
    func leavesNoStoreBehindWhenTheStoreWasMissing(_ bad: Case) throws {
        let model = try InterchangeTestSupport.model("Company")
        let folder = try InterchangeTestSupport.Folder()
        #expect(throws: InterchangeError.self) {
            try InterchangeTestSupport.importJSON(bad.document, model: model, into: folder.file("new.sqlite"))
        }
        #expect(try folder.snapshot().isEmpty)
    }

    @Test func syntaxErrorsGiveLineAndColumn() throws {
        let model = try InterchangeTestSupport.model("Company")
        let folder = try InterchangeTestSupport.Folder()
        do {
            try InterchangeTestSupport.importJSON("{\"Employee\": [\n  {\"_id\": \"e1\",}\n]}", model: model, into: folder.file("s.sqlite"))
            Issue.record("a trailing comma was accepted")
        } catch let error as InterchangeError {
            // Line 2 is `  {"_id": "e1",}`: the '}' after the comma is the 16th character.
            #expect(error.description == "the document is not valid JSON: line 2, column 16: expected a key (a string in double quotes)")
        }
        #expect(try folder.snapshot().isEmpty)
    }

    @Test func uniquenessConstraintViolationsNameBothObjects() throws {
        let model = try InterchangeTestSupport.model("Developers")
        let folder = try InterchangeTestSupport.Folder()
        let store = folder.file("developers.sqlite")
        try InterchangeTestSupport.importJSON(#"{"Language": [{"_id": "l0", "name": "Rust"}]}"#, model: model, into: store)
        let before = try folder.snapshot()
        do {
            try InterchangeTestSupport.importJSON(
                #"{"Language": [{"_id": "l1", "name": "Swift"}, {"_id": "l2", "name": "Swift"}]}"#, model: model, into: store)
            Issue.record("two languages named Swift were accepted")
        } catch let error as InterchangeError {
            let found = problems(of: error) ?? []
            #expect(!found.isEmpty)
            for problem in found {
                #expect(
                    problem == #"Language "l1", key 'name': Language "l2" has the same name (a uniqueness constraint)"#
                        || problem == #"Language "l2", key 'name': Language "l1" has the same name (a uniqueness constraint)"#,
                    "\(problem)")
            }
        }
        #expect(try folder.snapshot() == before)
    }

    @Test func aStoreOfAnotherModelIsRefusedAndLeftAsItWas() throws {
        let company = try InterchangeTestSupport.model("Company")
        let developers = try InterchangeTestSupport.model("Developers")
        let folder = try InterchangeTestSupport.Folder()
        let store = folder.file("developers.sqlite")
        try InterchangeTestSupport.importJSON(#"{"Language": [{"_id": "l0", "name": "Rust"}]}"#, model: developers, into: store)
        let before = try folder.snapshot()
        do {
            try InterchangeTestSupport.importJSON(Self.seed, model: company, into: store)
            Issue.record("a Company document went into a Developers store")
        } catch let error as InterchangeError {
            #expect(error.description.hasPrefix("\(store.path): the store was written for a different model"))
        }
        #expect(try folder.snapshot() == before)
    }

    @Test func importAddsToWhatTheStoreHolds() throws {
        let model = try InterchangeTestSupport.model("Company")
        let folder = try InterchangeTestSupport.Folder()
        let store = folder.file("company.sqlite")
        try InterchangeTestSupport.importJSON(Self.seed, model: model, into: store)
        try InterchangeTestSupport.importJSON(#"{"Department": [{"_id": "d1", "name": "Research"}]}"#, model: model, into: store)
        // The second document's "d1" is a new object: the seed's Sales is Department/1, Research Department/2.
        let departments = try #require(try InterchangeTestSupport.objects(in: InterchangeTestSupport.export(model: model, from: store))["Department"])
        #expect(departments.mapValues { $0["name"] } == ["Department/1": .string("Sales"), "Department/2": .string("Research")])
    }

    @Test func consistentInverseSidesAreAccepted() throws {
        let model = try InterchangeTestSupport.model("Company")
        let folder = try InterchangeTestSupport.Folder()
        let summary = try InterchangeTestSupport.importJSON(
            #"{"Department": [{"_id": "d1", "name": "X", "employees": ["e1"]}], "Employee": [{"_id": "e1", "firstName": "A", "lastName": "B", "department": "d1"}]}"#,
            model: model, into: folder.file("s.sqlite"))
        #expect(summary.total == 2)
    }
}
