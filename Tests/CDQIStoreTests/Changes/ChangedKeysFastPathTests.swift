import CDQIModel
import CDQIPredicate
import CDQITestSupport
import Foundation
import Testing

@testable import CDQIObjects
@testable import CDQISQLite
@testable import CDQIStore

/// The save's fast reading of changed keys (off the kept originals) gives the names the full comparison
/// of states gives, and its yes-or-no form whether there are any, whatever was changed, set back or
/// changed twice: a second evaluator for the shortcuts.
@Suite struct ChangedKeysFastPathTests {
    @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
    func fastAndFullComparisonsAgree(seed: UInt64) throws {
        var rng = SeededGenerator(seed: seed)
        let context = try ContextTestSupport.memoryContext("Company")
        var departments: [ManagedObject] = []
        for name in ["A", "B", "C"] {
            departments.append(try ContextTestSupport.insert(context, "Department", ["name": name]))
        }
        var employees: [ManagedObject] = []
        for index in 0..<12 {
            employees.append(
                try ContextTestSupport.insert(
                    context, "Employee",
                    [
                        "firstName": "F\(index)", "lastName": "L\(index)", "salary": Int32(index * 1000),
                        "department": departments[index % 3],
                    ]))
        }
        try context.save()
        for _ in 0..<40 {
            let employee = employees[rng.below(employees.count)]
            switch rng.below(6) {
            case 0: try employee.setValue(Int32(rng.below(5) * 1000), forKey: "salary")
            case 1: try employee.setValue(rng.below(2) == 0 ? nil : "N\(rng.below(3))", forKey: "nickName")
            case 2: try employee.setValue(departments[rng.below(3)], forKey: "department")
            case 3: try employee.setValue(nil, forKey: "department")
            case 4: try departments[rng.below(3)].setValue("D\(rng.below(3))", forKey: "name")
            default: try employee.setValue("L\(rng.below(12))", forKey: "lastName")
            }
        }
        for object in departments + employees {
            let full = ProcessedObjectState(current: object, context: context)
                .changedKeys(since: ProcessedObjectState(committed: object))
            #expect(object.changedKeysSinceSnapshot() == full, "\(object.objectID)")
            // The yes-or-no reading a save uses when no change observer needs the names.
            #expect(object.changedSinceSnapshot() == !full.isEmpty, "\(object.objectID)")
        }
    }
}
