import CDQIInterchange
import CDQIModel
import CDQIStore
import Foundation
import Testing

/// Export streams: the document goes out page by page in primary-key order, the context is emptied
/// after each page (memory stays flat), and the text equals the whole document built in memory.
@Suite struct StreamingExportTests {
    /// Seven employees in two departments (one with none), and Legal with no one.
    static let document = """
        {"Department": [{"_id": "d1", "name": "Sales"}, {"_id": "d2", "name": "Legal"}],
         "Employee": [
          {"firstName": "A", "lastName": "One", "salary": 1, "department": "d1"},
          {"firstName": "B", "lastName": "Two", "salary": 2, "department": "d1"},
          {"firstName": "C", "lastName": "Three", "salary": 3},
          {"firstName": "D", "lastName": "Four", "salary": 4, "department": "d1"},
          {"firstName": "E", "lastName": "Five", "salary": 5},
          {"firstName": "F", "lastName": "Six", "salary": 6, "department": "d1"},
          {"firstName": "G", "lastName": "Seven", "salary": 7}]}
        """

    @Test(arguments: [1, 2, 3, 7, 1_000])
    func pagesGiveTheWholeDocumentAndEmptyTheContext(pageSize: Int) throws {
        let model = try InterchangeTestSupport.model("Company")
        let folder = try InterchangeTestSupport.Folder()
        let store = folder.file("company.sqlite")
        try InterchangeTestSupport.importJSON(Self.document, model: model, into: store)
        let container = try PersistentContainer(model: model, url: store)
        let context = container.viewContext
        let exporter = StoreExporter(model: model)
        let whole = StoreExporter.text(of: try exporter.document(from: context, entity: nil))
        context.reset()

        var streamed = ""
        var counts: [Int] = []
        try exporter.writeDocument(
            from: context, pageSize: pageSize,
            progress: { written in
                counts.append(written)
                // Each page's objects are gone once it is written.
                #expect(context.registeredObjects.isEmpty)
            }, to: { streamed += $0 })
        #expect(streamed == whole)
        // 2 departments then 7 employees (no TestEntity): the running totals end at 9.
        #expect(counts.last == 9)
        #expect(counts == counts.sorted())
        // Pages: ⌈2/size⌉ (+1 when full) for departments, likewise for employees, +1 for the empty TestEntity.
        func pages(_ count: Int) -> Int { count / pageSize + 1 }
        #expect(counts.count == pages(2) + pages(7) + 1)
    }
}

/// A to-many is written from its members' IDs: however many members a department has, a page holds
/// no more objects than its own and their to-one destinations, and the text is the same at any page size.
@Suite struct LargeToManyExportTests {
    /// 120 employees: every fourth one (4, 8, …, 120) in Legal, the other 90 in Sales.
    static let document: String = {
        let employees = (1...120).map { number in
            #"{"firstName": "E\#(number)", "lastName": "L", "salary": \#(number), "department": "\#(number % 4 == 0 ? "d2" : "d1")"}"#
        }
        return #"{"Department": [{"_id": "d1", "name": "Sales"}, {"_id": "d2", "name": "Legal"}], "Employee": [\#(employees.joined(separator: ", "))]}"#
    }()

    @Test(arguments: [1, 2])
    func pagesHoldNoMembersAndTheTextIsTheSame(pageSize: Int) throws {
        let model = try InterchangeTestSupport.model("Company")
        let folder = try InterchangeTestSupport.Folder()
        let store = folder.file("company.sqlite")
        try InterchangeTestSupport.importJSON(Self.document, model: model, into: store)
        let atDefaultSize = try InterchangeTestSupport.export(model: model, from: store)

        let container = try PersistentContainer(model: model, url: store)
        let context = container.viewContext
        var streamed = ""
        var largest = 0
        try StoreExporter(model: model).writeDocument(
            from: context, pageSize: pageSize,
            to: {
                // A page's objects, and the department each employee of the page names: never a member list.
                largest = max(largest, context.registeredObjects.count)
                streamed += $0
            })
        #expect(largest <= 2 * pageSize)
        #expect(streamed == atDefaultSize)

        // Imported in document order: Sales is Department/1, Legal Department/2, employee n is Employee/n.
        let objects = try InterchangeTestSupport.objects(in: streamed)
        let sales = (1...120).filter { $0 % 4 != 0 }.map { JSONValue.string("Employee/\($0)") }
        let legal = stride(from: 4, through: 120, by: 4).map { JSONValue.string("Employee/\($0)") }
        #expect(sales.count == 90)
        #expect(objects["Department"]?["Department/1"]?["employees"] == .array(sales))
        #expect(objects["Department"]?["Department/2"]?["employees"] == .array(legal))
        #expect(objects["Employee"]?["Employee/120"]?["department"] == .string("Department/2"))
    }
}

/// Import tells its progress every thousand objects inserted.
@Suite struct ImportProgressTests {
    @Test func progressEveryThousandObjects() throws {
        let model = try InterchangeTestSupport.model("Company")
        let folder = try InterchangeTestSupport.Folder()
        let departments = (0..<2_500).map { #"{"name": "D\#($0)"}"# }.joined(separator: ", ")
        var reported: [Int] = []
        let summary = try StoreImporter(model: model).importDocument(
            Data(#"{"Department": [\#(departments)]}"#.utf8), into: folder.file("company.sqlite"), progress: { reported.append($0) })
        #expect(reported == [1_000, 2_000])
        #expect(summary.description.hasPrefix("imported 2500 objects"))
    }
}
