import CDQIModel
import Foundation
import Testing

@testable import CDQIObjects
@testable import CDQISQLite
@testable import CDQIStore

/// A refused save lists every failure and changes nothing on disk or in the context.
@Suite("Validation on save")
struct ValidationTests {
    private func fileBytes(_ url: URL) throws -> [Data] {
        try ["", "-wal"].map { suffix in
            let path = url.path + suffix
            return FileManager.default.fileExists(atPath: path) ? try Data(contentsOf: URL(fileURLWithPath: path)) : Data()
        }
    }

    private func failures(_ body: () throws -> Void) -> [ValidationFailure] {
        do {
            try body()
        } catch {
            if case .validation(let failures)? = error as? ContextError { return failures }
            Issue.record("expected a validation error, got \(error)")
            return []
        }
        Issue.record("expected the save to fail")
        return []
    }

    @Test("every failure is reported at once, and the file and the context are unchanged")
    func manyFailures() throws {
        let (coordinator, url, cleanUp) = try ContextTestSupport.fileCoordinator("Library")
        defer { cleanUp() }
        let context = ManagedObjectContext(coordinator: coordinator)
        let created = Date(timeIntervalSinceReferenceDate: 0)
        let keep = try ContextTestSupport.insert(context, "Shelf", ["name": "Existing"])
        try context.save()
        let before = try fileBytes(url)

        try keep.setValue(nil, forKey: "name")  // required
        let book = try ContextTestSupport.insert(context, "Book", ["isbn": "12345", "createdAt": created])  // no title, bad isbn
        let album = try ContextTestSupport.insert(context, "Album", ["title": "Loud", "trackCount": 1000, "createdAt": created])
        let quiet = try ContextTestSupport.insert(context, "Album", ["title": "Quiet", "trackCount": 0, "createdAt": created])
        for index in 0..<6 {
            try album.addObject(try ContextTestSupport.insert(context, "Tag", ["name": "t\(index)"]), toKey: "tags")
        }
        let found = failures { try context.save() }

        let expected: [(String, String, ValidationFailure.Problem)] = [
            ("Book", "isbn", .patternMismatch(pattern: "^[0-9]{9}[0-9X]$|^97[89][0-9]{10}$")),
            ("Book", "title", .missingMandatoryProperty),
            ("Album", "trackCount", .valueTooLarge(maximum: "999")),
            ("Album", "tags", .tooManyObjects(maximum: 5, count: 6)),
            ("Album", "trackCount", .valueTooSmall(minimum: "1")),
            ("Shelf", "name", .missingMandatoryProperty),
        ]
        #expect(found.count == expected.count)
        for (entity, key, problem) in expected {
            #expect(
                found.contains { $0.entityName == entity && $0.key == key && $0.problem == problem },
                "missing \(entity).\(key) \(problem)")
        }
        let isbnFailure = found.first { (failure: ValidationFailure) in failure.key == "isbn" }
        #expect(isbnFailure?.objectID == book.objectID.uriString)
        let tooSmall = ValidationFailure.Problem.valueTooSmall(minimum: "1")
        let smallFailure = found.first { (failure: ValidationFailure) in failure.problem == tooSmall }
        #expect(smallFailure?.objectID == quiet.objectID.uriString)
        let codes: Set<Int> = Set(found.map { (failure: ValidationFailure) in failure.code })
        #expect(codes == [1680, 1570, 1610, 1590, 1620])
        #expect(try fileBytes(url) == before)
        #expect(try ContextTestSupport.rows(file: url, "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = 1") == [["0"]])
        // The context is as it was: still dirty, same temporary IDs, same values.
        #expect(context.hasChanges)
        #expect(book.objectID.isTemporaryID && book.isInserted)
        #expect(try keep.value(forKey: "name") == nil)
        #expect(try album.objects(forKey: "tags").count == 6)

        // Fix everything and the same context saves.
        try keep.setValue("Existing", forKey: "name")
        try book.setValue("Title", forKey: "title")
        try book.setValue("9780306406157", forKey: "isbn")
        try album.setValue(999, forKey: "trackCount")
        try quiet.setValue(1, forKey: "trackCount")
        try album.removeObject(try album.objects(forKey: "tags")[0], fromKey: "tags")
        try context.save()
        #expect(try ContextTestSupport.rows(file: url, "SELECT ZISBN FROM ZITEM WHERE Z_ENT = 2") == [["9780306406157"]])
        #expect(try ContextTestSupport.rows(file: url, "SELECT COUNT(*) FROM Z_1TAGS") == [["5"]])
    }

    @Test("strings: minimum and maximum length, regular expressions match the whole string")
    func stringRules() throws {
        let context = try ContextTestSupport.memoryContext("Library")
        let created = Date(timeIntervalSinceReferenceDate: 0)
        // "0306406152" matches the first alternative; a longer string containing it does not.
        try ContextTestSupport.insert(context, "Book", ["title": "A", "isbn": "0306406152", "createdAt": created])
        let bad = try ContextTestSupport.insert(context, "Book", ["title": "B", "isbn": "x0306406152", "createdAt": created])
        let found = failures { try context.save() }
        #expect(found.map { (failure: ValidationFailure) in failure.objectID } == [bad.objectID.uriString])
        let mismatch = ValidationFailure.Problem.patternMismatch(pattern: "^[0-9]{9}[0-9X]$|^97[89][0-9]{10}$")
        #expect(found.map { (failure: ValidationFailure) in failure.problem } == [mismatch])
    }

    @Test("uniqueness: two pending objects, or a pending object and a saved row, may not share the values")
    func uniqueness() throws {
        let (coordinator, url, cleanUp) = try ContextTestSupport.fileCoordinator("Developers")
        defer { cleanUp() }
        let context = ManagedObjectContext(coordinator: coordinator)
        let saved = try ContextTestSupport.insert(context, "Developer", ["firstName": "Ann", "lastName": "Lee"])
        try ContextTestSupport.insert(context, "Language", ["name": "Swift"])
        try context.save()

        try ContextTestSupport.insert(context, "Developer", ["firstName": "Ann", "lastName": "Kay"])  // differs: fine
        let twin = try ContextTestSupport.insert(context, "Developer", ["firstName": "Ann", "lastName": "Lee"])
        let swiftA = try ContextTestSupport.insert(context, "Language", ["name": "Rust"])
        let swiftB = try ContextTestSupport.insert(context, "Language", ["name": "Rust"])
        let found = failures { try context.save() }
        #expect(found.count == 2)
        let twinProblem = ValidationFailure.Problem.notUnique(
            properties: ["firstName", "lastName"], otherObject: saved.objectID.uriString)
        let twinFailure = ValidationFailure(
            entityName: "Developer", objectID: twin.objectID.uriString, key: "firstName,lastName", problem: twinProblem)
        let rustFailure = ValidationFailure(
            entityName: "Language", objectID: swiftB.objectID.uriString, key: "name",
            problem: .notUnique(properties: ["name"], otherObject: swiftA.objectID.uriString))
        #expect(Set(found) == [twinFailure, rustFailure])
        #expect(try ContextTestSupport.rows(file: url, "SELECT COUNT(*) FROM ZDEVELOPER") == [["1"]])

        // Deleting the saved twin in the same save frees the values.
        try context.delete(swiftB)
        try context.delete(saved)
        try context.save()
        #expect(
            try ContextTestSupport.rows(file: url, "SELECT ZFIRSTNAME, ZLASTNAME FROM ZDEVELOPER ORDER BY Z_PK") == [
                ["Ann", "Kay"], ["Ann", "Lee"],
            ])
    }

    @Test("dynamic access reports unknown keys, wrong types and out-of-range integers")
    func valueErrors() throws {
        let context = try ContextTestSupport.memoryContext("Company")
        let test = try context.insertNewObject(forEntityName: "TestEntity")
        #expect(throws: ManagedObjectError.unknownKey(entity: "TestEntity", key: "nope")) { try test.value(forKey: "nope") }
        #expect(throws: ManagedObjectError.unknownKey(entity: "TestEntity", key: "nope")) { try test.setValue(1, forKey: "nope") }
        #expect(throws: ManagedObjectError.wrongValueType(entity: "TestEntity", key: "string", expected: "a String", got: "Int")) {
            try test.setValue(5, forKey: "string")
        }
        #expect(throws: ManagedObjectError.wrongValueType(entity: "TestEntity", key: "boolean", expected: "a Bool", got: "Int")) {
            try test.setValue(1, forKey: "boolean")
        }
        #expect(throws: ManagedObjectError.valueOutOfRange(entity: "TestEntity", key: "integer16", value: "40000")) {
            try test.setValue(40000, forKey: "integer16")
        }
        try test.setValue(Int16.max, forKey: "integer16")
        #expect(try test.value(forKey: "integer16") as? Int16 == Int16.max)
        try test.setValue(Optional<String>.none, forKey: "string")
        #expect(try test.value(forKey: "string") == nil)
        #expect(throws: ContextError.self) { try context.insertNewObject(forEntityName: "Nope") }
        let library = try ContextTestSupport.memoryContext("Library")
        do {
            _ = try library.insertNewObject(forEntityName: "Item")
            Issue.record("Item is abstract")
        } catch {
            guard case .abstractEntity("Item") = error else {
                Issue.record("wrong error \(error)")
                return
            }
        }
    }

    @Test("defaults, changedValues and committedValues")
    func changeTracking() throws {
        let context = try ContextTestSupport.memoryContext("Company")
        let employee = try context.insertNewObject(forEntityName: "Employee")
        #expect(try employee.value(forKey: "salary") as? Int32 == 0)  // defaultValueString="0"
        try employee.setValue("Ada", forKey: "firstName")
        try employee.setValue("L", forKey: "lastName")
        #expect(Set(employee.changedValues().keys) == ["firstName", "lastName", "salary"])
        #expect(employee.committedValues.isEmpty)
        try context.save()
        #expect(employee.changedValues().isEmpty)
        #expect(employee.committedValues["firstName"] as? String == "Ada")
        try employee.setValue("Grace", forKey: "firstName")
        #expect(employee.changedValues().count == 1)
        #expect(employee.changedValues()["firstName"] as? String == "Grace")
        #expect(employee.committedValues["firstName"] as? String == "Ada")
        #expect(employee.isUpdated)
        try employee.setValue("Ada", forKey: "firstName")  // back to the saved value
        #expect(!employee.isUpdated)
        #expect(!context.hasChanges)
    }

    @Test("string lengths count UTF-16 units; dates and numbers are checked against their range")
    func rangesFromAModelBuiltInCode() throws {
        var title = AttributeDescription(name: "title", type: .string, isOptional: true)
        title.minValueString = "2"
        title.maxValueString = "5"
        var when = AttributeDescription(name: "when", type: .date, isOptional: true)
        when.minDateTimeInterval = 0
        when.maxDateTimeInterval = 100
        var score = AttributeDescription(name: "score", type: .double, isOptional: true)
        score.minValueString = "-1.5"
        var note = EntityDescription(name: "Note")
        note.attributes = [title, when, score]
        let coordinator = try PersistentStoreCoordinator(model: ManagedObjectModel(entities: [note]), url: nil)
        let context = ManagedObjectContext(coordinator: coordinator)
        let short = try ContextTestSupport.insert(context, "Note", ["title": "a", "when": Date(timeIntervalSinceReferenceDate: -1)])
        let long = try ContextTestSupport.insert(context, "Note", ["title": "abcdef", "when": Date(timeIntervalSinceReferenceDate: 101), "score": -2])
        // "é😀" is 1 + 2 UTF-16 units: 3, inside 2…5; the bounds themselves are allowed.
        try ContextTestSupport.insert(context, "Note", ["title": "é😀", "when": Date(timeIntervalSinceReferenceDate: 100), "score": -1.5])
        let found = failures { try context.save() }
        let expected: Set<ValidationFailure> = [
            ValidationFailure(
                entityName: "Note", objectID: short.objectID.uriString, key: "title",
                problem: .stringTooShort(minimumLength: 2, length: 1)),
            ValidationFailure(
                entityName: "Note", objectID: short.objectID.uriString, key: "when",
                problem: .valueTooSmall(minimum: "2001-01-01T00:00:00Z")),
            ValidationFailure(
                entityName: "Note", objectID: long.objectID.uriString, key: "title",
                problem: .stringTooLong(maximumLength: 5, length: 6)),
            ValidationFailure(
                entityName: "Note", objectID: long.objectID.uriString, key: "when",
                problem: .valueTooLarge(maximum: "2001-01-01T00:01:40Z")),
            ValidationFailure(
                entityName: "Note", objectID: long.objectID.uriString, key: "score",
                problem: .valueTooSmall(minimum: "-1.5")),
        ]
        #expect(Set(found) == expected)
        #expect(found.count == 5)
    }

    @Test("a statement failing halfway through a save rolls everything back, keys included")
    func failureInsideTheTransaction() throws {
        let (coordinator, url, cleanUp) = try ContextTestSupport.fileCoordinator("Library")
        defer { cleanUp() }
        let context = ManagedObjectContext(coordinator: coordinator)
        let red = try ContextTestSupport.insert(context, "Tag", ["name": "red"])
        let blue = try ContextTestSupport.insert(context, "Tag", ["name": "blue"])
        try context.save()
        let before = try fileBytes(url)

        // Swapping two unique names passes validation (each old holder changes away) but the first
        // UPDATE hits the unique index: a known limitation, and a real mid-save failure.
        let added = try ContextTestSupport.insert(context, "Tag", ["name": "green"])
        try red.setValue("blue", forKey: "name")
        try blue.setValue("red", forKey: "name")
        do {
            try context.save()
            Issue.record("expected the unique index to refuse the swap")
        } catch {
            guard case .store(.sqlite(let sqlite)) = error else {
                Issue.record("wrong error \(error)")
                return
            }
            #expect(sqlite.code == 19)
        }
        #expect(try fileBytes(url) == before)
        #expect(
            try ContextTestSupport.rows(file: url, "SELECT Z_PK, ZNAME, Z_OPT FROM ZTAG ORDER BY Z_PK") == [
                ["1", "red", "1"], ["2", "blue", "1"],
            ])
        #expect(try ContextTestSupport.rows(file: url, "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Tag'") == [["2"]])
        #expect(added.objectID.isTemporaryID && added.isInserted)
        #expect(context.updatedObjects == [red, blue])
        #expect(try red.value(forKey: "name") as? String == "blue")

        try red.setValue("crimson", forKey: "name")
        try context.save()
        #expect(
            try ContextTestSupport.rows(file: url, "SELECT Z_PK, ZNAME, Z_OPT FROM ZTAG ORDER BY Z_PK") == [
                ["1", "crimson", "2"], ["2", "red", "2"], ["3", "green", "1"],
            ])
    }
}
