import CDQIInterchange
import CDQIModel
import CDQIPredicate
import Foundation
import Testing

/// Queries of a small hand-made Company store, and hostile strings stored and found literally.
@Suite struct StoreQueryTests {
    static let document = """
        {"Department": [{"_id": "s", "name": "Sales", "budget": "1000.5"}, {"_id": "r", "name": "Research"}],
         "Employee": [
           {"_id": "a", "firstName": "Ann", "lastName": "Lee", "salary": 120000, "department": "r", "hireDate": "2020-02-29T12:00:00.5Z"},
           {"_id": "b", "firstName": "Bob", "lastName": "Ames", "salary": 50000, "department": "s"},
           {"_id": "c", "firstName": "Cy", "lastName": "Zed", "salary": 70000, "department": "s", "nickName": "C"},
           {"_id": "d", "firstName": "Di", "lastName": "Moe", "salary": 90000}
         ]}
        """

    private func store() throws -> (InterchangeTestSupport.Folder, URL, ManagedObjectModel) {
        let model = try InterchangeTestSupport.model("Company")
        let folder = try InterchangeTestSupport.Folder()
        let url = folder.file("company.sqlite")
        try InterchangeTestSupport.importJSON(Self.document, model: model, into: url)
        return (folder, url, model)
    }

    @Test func objectRowsCarryIDAttributesAndToOnes() throws {
        let (folder, url, model) = try store()
        _ = folder
        var query = StoreQuery(entityName: "Employee")
        query.predicate = "salary >= 70000"
        query.order = ["salary:desc"]
        let table = try query.run(model: model, storeURL: url)
        #expect(table.columns == ["_id", "firstName", "hireDate", "lastName", "nickName", "salary", "department"])
        // Employees were inserted a, b, c, d (pk 1–4); salary ≥ 70000 are a (120000), d (90000), c (70000).
        #expect(table.rows.map { $0[0].interchangeText } == ["Employee/1", "Employee/4", "Employee/3"])
        #expect(table.rows.map { $0[6].interchangeText } == ["Department/2", nil, "Department/1"])
        // 2020-02-29T12:00:00.5Z is 6998 days after 2001-01-01 (19 years with 4 leap days, plus 59
        // days of 2020) and 12.5 hours: 6998 × 86400 + 43200.5 seconds.
        #expect(table.rows[0][2] == .date(secondsSinceReferenceDate: 604_670_400.5))
        #expect(try query.count(model: model, storeURL: url) == 3)
    }

    @Test func windowsApplyAfterTheOrder() throws {
        let (folder, url, model) = try store()
        _ = folder
        var query = StoreQuery(entityName: "Employee")
        query.order = ["lastName"]
        query.offset = 1
        query.limit = 2
        // By last name: Ames, Lee, Moe, Zed; skip one, take two.
        #expect(try query.run(model: model, storeURL: url).rows.map { $0[3].interchangeText } == ["Lee", "Moe"])
        #expect(try query.count(model: model, storeURL: url) == 2)
    }

    @Test func groupedAggregates() throws {
        let (folder, url, model) = try store()
        _ = folder
        var query = StoreQuery(entityName: "Employee")
        query.select = ["department.name", "count:(salary)", "max:(salary)"]
        query.groupBy = ["department.name"]
        query.order = ["department.name"]
        let table = try query.run(model: model, storeURL: url)
        #expect(table.columns == ["department.name", "count:(salary)", "max:(salary)"])
        // No department: Di (90000); Research: Ann (120000); Sales: Bob and Cy (max 70000). NULL sorts first.
        #expect(
            table.rows.map { $0.map(\.interchangeText) } == [
                [nil, "1", "90000"], ["Research", "1", "120000"], ["Sales", "2", "70000"],
            ])
        #expect(try query.count(model: model, storeURL: url) == 3)
    }

    @Test func badPredicateReportsItsPosition() throws {
        let (folder, url, model) = try store()
        _ = folder
        var query = StoreQuery(entityName: "Employee")
        query.predicate = "salary > AND"
        do {
            _ = try query.run(model: model, storeURL: url)
            Issue.record("a bad predicate ran")
        } catch {
            #expect(error.isUsageError)
            // "salary > " is 9 characters; the error is at the 10th, "AND".
            #expect(error.description.hasPrefix("--where: "))
            #expect(error.description.contains(" at character 10\n  salary > AND\n           ^"))
        }
    }

    @Test func unknownNamesAreUsageErrors() throws {
        let (folder, url, model) = try store()
        _ = folder
        var query = StoreQuery(entityName: "Employe")
        #expect(throws: QueryError.self) { try query.run(model: model, storeURL: url) }
        query = StoreQuery(entityName: "Employee")
        query.predicate = "salry > 1"
        do {
            _ = try query.run(model: model, storeURL: url)
            Issue.record("an unknown key ran")
        } catch {
            #expect(error.isUsageError)
            #expect(error.description.contains("salry"))
        }
        query = StoreQuery(entityName: "Employee")
        query.order = ["lastName:sideways"]
        #expect(throws: QueryError.self) { try query.run(model: model, storeURL: url) }
    }

    @Test func aMissingStoreIsAnErrorAndIsNotCreated() throws {
        let model = try InterchangeTestSupport.model("Company")
        let folder = try InterchangeTestSupport.Folder()
        let url = folder.file("absent.sqlite")
        do {
            _ = try StoreQuery(entityName: "Employee").run(model: model, storeURL: url)
            Issue.record("a missing store was queried")
        } catch {
            #expect(!error.isUsageError)
            #expect(error.description == "\(url.path): no such store (query and export never create one; import does)")
        }
        #expect(throws: InterchangeError.self) { try InterchangeTestSupport.export(model: model, from: url) }
        #expect(try folder.snapshot().isEmpty)
    }

    @Test func hostileStringsAreStoredAndMatchedLiterally() throws {
        let model = try InterchangeTestSupport.model("Company")
        let folder = try InterchangeTestSupport.Folder()
        let url = folder.file("hostile.sqlite")
        let names = RoundTripTests.hostile
        let employees = names.enumerated().map { index, name in
            "{\"_id\": \"e\(index)\", \"firstName\": \(JSONWriter.quoted(name)), \"lastName\": \"L\(index)\"}"
        }
        try InterchangeTestSupport.importJSON("{\"Employee\": [\(employees.joined(separator: ", "))]}", model: model, into: url)

        var query = StoreQuery(entityName: "Employee")
        query.select = ["firstName"]
        query.order = ["lastName"]
        let stored = try query.run(model: model, storeURL: url).rows.map { $0[0] }
        // Ordered by "L0", "L1", …, "L9": the document's order.
        #expect(stored == names.map(StoredValue.string))

        // Every name, written as a predicate literal, matches exactly its own object (no injection, no
        // wildcard): double quotes and backslashes escaped as the predicate language wants.
        for (index, name) in names.enumerated() {
            let literal =
                "\""
                + name.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
                .replacingOccurrences(of: "\n", with: "\\n").replacingOccurrences(of: "\t", with: "\\t") + "\""
            var match = StoreQuery(entityName: "Employee")
            match.predicate = "firstName == \(literal)"
            let rows = try match.run(model: model, storeURL: url).rows
            #expect(rows.map { $0[3] } == [.string("L\(index)")], "\(name)")
        }
        #expect(try StoreQuery(entityName: "Employee").count(model: model, storeURL: url) == names.count)
    }
}
