import CDQIInterchange
import CDQIModel
import CDQIStore
import Foundation
import Testing

/// `_id`s are compared as exact strings, Unicode scalar by scalar: canonically equivalent spellings
/// (NFC "é" and NFD "e" + U+0301) are distinct `_id`s (issue 15, finding 5).
@Suite struct DocumentIDTests {
    // Written with escapes so that no editor normalizes them: U+00E9 vs U+0065 U+0301, U+00C5 vs
    // U+0041 U+030A, and U+212B (ANGSTROM SIGN), canonically equivalent to U+00C5 too.
    static let document = #"""
        {"Department": [
          {"_id": "\u00e9", "name": "NFC e-acute"},
          {"_id": "e\u0301", "name": "NFD e-acute"},
          {"_id": "\u00c5", "name": "NFC A-ring"},
          {"_id": "A\u030a", "name": "NFD A-ring"},
          {"_id": "\u212b", "name": "Angstrom sign"}
        ],
         "Employee": [
          {"_id": "x", "firstName": "X", "lastName": "X", "department": "e\u0301"},
          {"_id": "y", "firstName": "Y", "lastName": "Y", "department": "\u212b"}
         ]}
        """#

    @Test("five canonically equivalent but distinct _ids are five objects, and references pick the exact one")
    func equivalentIDsAreDistinct() throws {
        let model = try InterchangeTestSupport.model("Company")
        let importer = StoreImporter(model: model)
        #expect(try importer.check(Data(Self.document.utf8)).counted == "7 objects: 5 Department, 2 Employee")
        let folder = try InterchangeTestSupport.Folder()
        let store = folder.file("ids.sqlite")
        _ = try importer.importDocument(Data(Self.document.utf8), into: store)
        // Departments are inserted in document order: NFD e-acute is Department/2, the Angstrom sign /5.
        let container = try PersistentContainer(model: model, url: store)
        var request = FetchRequest(entityName: "Employee")
        request.sortDescriptors = [FetchSortDescriptor(keyPath: "lastName", ascending: true)]
        let employees = try container.viewContext.fetch(request)
        let names = try employees.map { try $0.object(forKey: "department").map { try $0.storedValue(forKey: "name") } }
        #expect(names == [.string("NFD e-acute"), .string("Angstrom sign")])
    }

    @Test("a to-many listing two equivalent _ids lists two objects")
    func toManyWithEquivalentIDs() throws {
        let document = #"""
            {"Department": [{"_id": "d", "name": "D", "employees": ["\u00e9", "e\u0301"]}],
             "Employee": [{"_id": "\u00e9", "firstName": "A", "lastName": "A"}, {"_id": "e\u0301", "firstName": "B", "lastName": "B"}]}
            """#
        let importer = StoreImporter(model: try InterchangeTestSupport.model("Company"))
        #expect(try importer.check(Data(document.utf8)).counted == "3 objects: 1 Department, 2 Employee")
    }
}
