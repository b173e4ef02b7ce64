import CDQIStore
import CoreDataQueryInterface
import Foundation

// Hand-written entity classes and proxies for the Company model, in the shape `cdqi` generates, for
// the query execution tests. (Generated classes are tested elsewhere; these keep the query tests
// independent of the generator.)

final class CompanyDepartmentAttribute: EntityAttribute, Subqueryable {
    private(set) lazy var name = StringAttribute(key: "name", parent: self)
    private(set) lazy var budget = DecimalAttribute(key: "budget", parent: self)
    private(set) lazy var employees = CompanyEmployeeAttribute(key: "employees", parent: self)
}

final class CompanyEmployeeAttribute: EntityAttribute, Subqueryable {
    private(set) lazy var firstName = StringAttribute(key: "firstName", parent: self)
    private(set) lazy var lastName = StringAttribute(key: "lastName", parent: self)
    private(set) lazy var nickName = StringAttribute(key: "nickName", parent: self)
    private(set) lazy var salary = Integer32Attribute(key: "salary", parent: self)
    private(set) lazy var hireDate = DateAttribute(key: "hireDate", parent: self)
    private(set) lazy var department = CompanyDepartmentAttribute(key: "department", parent: self)
}

final class CompanyDepartment: ManagedObject, Entity {
    typealias CDQIAttribute = CompanyDepartmentAttribute
    static let cdqiEntityName = "Department"

    var name: String? { (try? value(forKey: "name")) as? String }
}

final class CompanyEmployee: ManagedObject, Entity {
    typealias CDQIAttribute = CompanyEmployeeAttribute
    static let cdqiEntityName = "Employee"

    var firstName: String? { (try? value(forKey: "firstName")) as? String }
    /// A property with the same name as a proxy's, as generated classes have: `query.filter { $0.salary … }`
    /// must still mean the query's filter, not `Sequence.filter`.
    var salary: Int32 { ((try? value(forKey: "salary")) as? Int32) ?? 0 }
}

/// A proxy that lies about a column's type (`lastName` as an integer), to check that typed decoding
/// reports a mismatch instead of crashing.
final class MislabeledEmployeeAttribute: EntityAttribute {
    private(set) lazy var lastName = Integer32Attribute(key: "lastName", parent: self)
}

final class MislabeledEmployee: ManagedObject, Entity {
    typealias CDQIAttribute = MislabeledEmployeeAttribute
    static let cdqiEntityName = "Employee"
}

enum CompanyQueries {
    /// The Company fixture with the classes registered, and a fresh context whose objects are
    /// instances of them (the fixture's own view context made its objects before registration).
    static func context() throws -> (PersistentContainer, ManagedObjectContext) {
        let (container, _) = try FixtureData.company()
        container.coordinator.register(CompanyEmployee.self, forEntityName: "Employee")
        container.coordinator.register(CompanyDepartment.self, forEntityName: "Department")
        return (container, container.newContext())
    }

    /// First names of employees, in order.
    static func firstNames(_ employees: [CompanyEmployee]) -> [String] {
        employees.map { $0.firstName ?? "<nil>" }
    }
}

/// A user type stored in an Integer 32 attribute, as in CDQI's README.
enum Level: Int32, QueryResultValue {
    case one = 1
    case three = 3
}

/// The Company model's `TestEntity`, with `integer32` typed as ``Level`` and `integer16` as a `Level`
/// too, although it holds 2 for t2, which is no `Level`.
final class LevelRowAttribute: EntityAttribute {
    private(set) lazy var string = StringAttribute(key: "string", parent: self)
    private(set) lazy var integer32 = ScalarAttribute<Level>(key: "integer32", parent: self)
    private(set) lazy var integer16 = ScalarAttribute<Level>(key: "integer16", parent: self)
}

final class LevelRow: ManagedObject, Entity {
    typealias CDQIAttribute = LevelRowAttribute
    static let cdqiEntityName = "TestEntity"
}
