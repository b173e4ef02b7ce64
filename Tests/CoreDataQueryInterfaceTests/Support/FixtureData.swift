import CDQIModel
import CDQIStore
import Foundation

/// Hand-built data sets over the fixture models (`Fixtures/Company.xcdatamodeld`,
/// `Fixtures/Developers.xcdatamodeld`), saved into in-memory stores, for tests that run queries
/// against a real store and compare the results with answers worked out by hand.
///
/// Each call builds a fresh container, so tests never share state. The data are listed here so that
/// expected results can be worked out from this comment alone.
///
/// **Company** (`company()`):
///
/// | department  | budget  | employees                          |
/// | ----------- | ------- | ---------------------------------- |
/// | Engineering | 500000  | Ann, Bob, Chloé, Grace             |
/// | Sales       | 200000  | David, Emma, Frank                 |
/// | Marketing   | 150000  | Hugo, Iris                         |
/// | Support     | nil     | Jack, Karen                        |
/// | Legal       | 75000.5 | (none)                             |
///
/// | firstName | lastName | nickName      | salary | hireDate   | department  |
/// | --------- | -------- | ------------- | ------ | ---------- | ----------- |
/// | Ann       | Lee      | Annie         | 120000 | 2015-03-01 | Engineering |
/// | Bob       | Smith    | nil           |  95000 | 2018-06-15 | Engineering |
/// | Chloé     | Martin   | Clo           | 105000 | 2020-01-10 | Engineering |
/// | Grace     | Hopper   | Amazing Grace | 150000 | 2010-01-04 | Engineering |
/// | David     | Smith    | Dave          |  70000 | 2012-09-01 | Sales       |
/// | Emma      | Jones    | nil           |  82000 | 2019-04-20 | Sales       |
/// | Frank     | Müller   | Frankie       |  64000 | 2021-11-01 | Sales       |
/// | Hugo      | Renard   | nil           |  58000 | 2022-02-14 | Marketing   |
/// | Iris      | Smithson | Irie          |  61000 | 2016-07-01 | Marketing   |
/// | Jack      | O'Neil   | nil           |  45000 | nil        | Support     |
/// | Karen     | Lee      | Kay           |  47000 | 2023-05-05 | Support     |
/// | Liam      | Noël     | nil           |  52000 | 2014-08-18 | nil         |
///
/// Dates are midnight UTC. Three `TestEntity` rows, named by their `string` attribute:
///
/// | string | integer16 | integer32 | integer64      | double | float | boolean | decimal |
/// | ------ | --------- | --------- | -------------- | ------ | ----- | ------- | ------- |
/// | t1     | 1         | 1         | 10000000000    | 1.5    | 0.5   | true    | 1.25    |
/// | t2     | 2         | 3         | -5             | -2.0   | 2.5   | false   | 10      |
/// | t3     | nil       | nil       | nil            | nil    | nil   | nil     | nil     |
///
/// | string | binary          | uuid                                   | uri                    | date       |
/// | ------ | --------------- | -------------------------------------- | ---------------------- | ---------- |
/// | t1     | bytes 1, 2, 3   | 00000000-0000-0000-0000-000000000001   | https://example.com/t1 | 2020-01-01 |
/// | t2     | byte 9          | 00000000-0000-0000-0000-000000000002   | https://example.com/t2 | 2021-06-15 |
/// | t3     | nil             | nil                                    | nil                    | nil        |
///
/// **Developers** (`developers()`):
///
/// | developer           | nickName | languages      | member of          | leads    |
/// | ------------------- | -------- | -------------- | ------------------ | -------- |
/// | Ada Lovelace        | Countess | Swift, Rust, C | Compiler, Kernel   | —        |
/// | Linus Torvalds      | nil      | C              | Kernel             | Kernel   |
/// | Chris Lattner       | CL       | Swift, C       | Compiler           | Compiler |
/// | Guido van Rossum    | nil      | Python         | Website            | —        |
/// | Andrey Breslav      | nil      | Kotlin         | Website            | —        |
/// | Margaret Hamilton   | Maggie   | (none)         | Website            | Archive  |
///
/// Languages: Swift, Rust, C, Python, Kotlin, Haskell (Haskell has no developers). Projects and
/// deadlines: Compiler 2026-06-30, Kernel nil, Website 2025-12-31, Archive 2024-01-01 (Archive has no
/// members; Website has no lead).
enum FixtureData {
    /// Problems building the data set (a fixture model that does not load, a bad date literal).
    struct SetupError: Error, CustomStringConvertible {
        let description: String
    }

    /// The package root (…/Tests/CoreDataQueryInterfaceTests/Support/FixtureData.swift → four up).
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Loads `Fixtures/<name>.xcdatamodeld`.
    static func model(_ name: String) throws -> ManagedObjectModel {
        try ModelLoader().load(url: packageRoot.appendingPathComponent("Fixtures/\(name).xcdatamodeld")).model
    }

    /// The Company data set (see the type's documentation) in a new in-memory store.
    ///
    /// - Parameter saved: `true` (the default) saves the objects, so fetches run in SQL; `false` leaves
    ///   them inserted but unsaved, so fetches answer with the in-memory evaluator instead.
    static func company(saved: Bool = true) throws -> (PersistentContainer, ManagedObjectContext) {
        let container = try PersistentContainer(model: try model("Company"), url: nil)
        let context = container.viewContext
        var departments: [String: ManagedObject] = [:]
        let departmentRows: [(String, Decimal?)] = [
            ("Engineering", 500_000), ("Sales", 200_000), ("Marketing", 150_000), ("Support", nil),
            ("Legal", Decimal(string: "75000.5")),
        ]
        for (name, budget) in departmentRows {
            let department = try context.insertNewObject(forEntityName: "Department")
            try department.setValue(name, forKey: "name")
            try department.setValue(budget, forKey: "budget")
            departments[name] = department
        }
        let employeeRows: [(String, String, String?, Int32, String?, String?)] = [
            ("Ann", "Lee", "Annie", 120_000, "2015-03-01", "Engineering"),
            ("Bob", "Smith", nil, 95_000, "2018-06-15", "Engineering"),
            ("Chloé", "Martin", "Clo", 105_000, "2020-01-10", "Engineering"),
            ("Grace", "Hopper", "Amazing Grace", 150_000, "2010-01-04", "Engineering"),
            ("David", "Smith", "Dave", 70_000, "2012-09-01", "Sales"),
            ("Emma", "Jones", nil, 82_000, "2019-04-20", "Sales"),
            ("Frank", "Müller", "Frankie", 64_000, "2021-11-01", "Sales"),
            ("Hugo", "Renard", nil, 58_000, "2022-02-14", "Marketing"),
            ("Iris", "Smithson", "Irie", 61_000, "2016-07-01", "Marketing"),
            ("Jack", "O'Neil", nil, 45_000, nil, "Support"),
            ("Karen", "Lee", "Kay", 47_000, "2023-05-05", "Support"),
            ("Liam", "Noël", nil, 52_000, "2014-08-18", nil),
        ]
        for (first, last, nick, salary, hired, department) in employeeRows {
            let employee = try context.insertNewObject(forEntityName: "Employee")
            try employee.setValue(first, forKey: "firstName")
            try employee.setValue(last, forKey: "lastName")
            try employee.setValue(nick, forKey: "nickName")
            try employee.setValue(salary, forKey: "salary")
            try employee.setValue(try hired.map(day), forKey: "hireDate")
            try employee.setValue(department.flatMap { departments[$0] }, forKey: "department")
        }
        let testRows: [(String, Int16?, Int32?, Int64?, Double?, Float?, Bool?, Decimal?)] = [
            ("t1", 1, 1, 10_000_000_000, 1.5, 0.5, true, Decimal(string: "1.25")),
            ("t2", 2, 3, -5, -2.0, 2.5, false, 10),
            ("t3", nil, nil, nil, nil, nil, nil, nil),
        ]
        let otherRows: [String: (Data, String, String, String)] = [
            "t1": (Data([1, 2, 3]), "00000000-0000-0000-0000-000000000001", "https://example.com/t1", "2020-01-01"),
            "t2": (Data([9]), "00000000-0000-0000-0000-000000000002", "https://example.com/t2", "2021-06-15"),
        ]
        for (name, i16, i32, i64, double, float, boolean, decimal) in testRows {
            let row = try context.insertNewObject(forEntityName: "TestEntity")
            try row.setValue(name, forKey: "string")
            try row.setValue(i16, forKey: "integer16")
            try row.setValue(i32, forKey: "integer32")
            try row.setValue(i64, forKey: "integer64")
            try row.setValue(double, forKey: "double")
            try row.setValue(float, forKey: "float")
            try row.setValue(boolean, forKey: "boolean")
            try row.setValue(decimal, forKey: "decimal")
            if let (binary, uuid, uri, date) = otherRows[name] {
                try row.setValue(binary, forKey: "binary")
                try row.setValue(try uuidValue(uuid), forKey: "uuid")
                try row.setValue(try urlValue(uri), forKey: "uri")
                try row.setValue(try day(date), forKey: "date")
            }
        }
        if saved { _ = try context.save() }
        return (container, context)
    }

    /// The Developers data set (see the type's documentation) in a new in-memory store.
    ///
    /// - Parameter saved: as for ``company(saved:)``.
    static func developers(saved: Bool = true) throws -> (PersistentContainer, ManagedObjectContext) {
        let container = try PersistentContainer(model: try model("Developers"), url: nil)
        let context = container.viewContext
        var languages: [String: ManagedObject] = [:]
        for name in ["Swift", "Rust", "C", "Python", "Kotlin", "Haskell"] {
            let language = try context.insertNewObject(forEntityName: "Language")
            try language.setValue(name, forKey: "name")
            languages[name] = language
        }
        var projects: [String: ManagedObject] = [:]
        for (name, deadline) in [("Compiler", "2026-06-30"), ("Kernel", nil), ("Website", "2025-12-31"), ("Archive", "2024-01-01")] {
            let project = try context.insertNewObject(forEntityName: "Project")
            try project.setValue(name, forKey: "name")
            try project.setValue(try deadline.map(day), forKey: "deadline")
            projects[name] = project
        }
        let developerRows: [(String, String, String?, [String], [String], [String])] = [
            ("Ada", "Lovelace", "Countess", ["Swift", "Rust", "C"], ["Compiler", "Kernel"], []),
            ("Linus", "Torvalds", nil, ["C"], ["Kernel"], ["Kernel"]),
            ("Chris", "Lattner", "CL", ["Swift", "C"], ["Compiler"], ["Compiler"]),
            ("Guido", "van Rossum", nil, ["Python"], ["Website"], []),
            ("Andrey", "Breslav", nil, ["Kotlin"], ["Website"], []),
            ("Margaret", "Hamilton", "Maggie", [], ["Website"], ["Archive"]),
        ]
        for (first, last, nick, spoken, memberOf, leads) in developerRows {
            let developer = try context.insertNewObject(forEntityName: "Developer")
            try developer.setValue(first, forKey: "firstName")
            try developer.setValue(last, forKey: "lastName")
            try developer.setValue(nick, forKey: "nickName")
            try developer.setValue(spoken.compactMap { languages[$0] }, forKey: "languages")
            try developer.setValue(memberOf.compactMap { projects[$0] }, forKey: "projects")
            try developer.setValue(leads.compactMap { projects[$0] }, forKey: "ledProjects")
        }
        if saved { _ = try context.save() }
        return (container, context)
    }

    /// Midnight UTC of an ISO 8601 day (`"2015-03-01"`).
    static func day(_ text: String) throws -> Date {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        guard let date = formatter.date(from: text) else { throw SetupError(description: "bad fixture date '\(text)'") }
        return date
    }

    /// The UUID a fixture string spells.
    static func uuidValue(_ text: String) throws -> UUID {
        guard let uuid = UUID(uuidString: text) else { throw SetupError(description: "bad fixture UUID '\(text)'") }
        return uuid
    }

    /// The URL a fixture string spells.
    static func urlValue(_ text: String) throws -> URL {
        guard let url = URL(string: text) else { throw SetupError(description: "bad fixture URL '\(text)'") }
        return url
    }

    /// The values of `key` (a string attribute) of `objects`, as a set: what tests compare with the
    /// names they expect.
    static func strings(_ objects: [ManagedObject], _ key: String = "firstName") throws -> Set<String> {
        var result: Set<String> = []
        for object in objects {
            guard let value = try object.value(forKey: key) as? String else {
                throw SetupError(description: "\(object) has no string '\(key)'")
            }
            result.insert(value)
        }
        return result
    }
}
