import CoreDataQueryInterface
import Foundation
import Testing

// A hand-written model in the shape cdqi generates, so the runtime is tested without the generator.
private final class DepartmentAttribute: EntityAttribute, Subqueryable {
    private(set) lazy var name = StringAttribute(key: "name", parent: self)
    private(set) lazy var manager = EmployeeAttribute(key: "manager", parent: self)
    private(set) lazy var employees = EmployeeAttribute(key: "employees", parent: self)
}

private class PersonAttribute: EntityAttribute, Subqueryable {
    private(set) lazy var lastName = StringAttribute(key: "lastName", parent: self)
    private(set) lazy var count = Integer64Attribute(key: "count", parent: self)
}

private final class EmployeeAttribute: PersonAttribute {
    private(set) lazy var salary = Integer32Attribute(key: "salary", parent: self)
    private(set) lazy var photo = TransformableAttribute(key: "photo", parent: self)
    private(set) lazy var department = DepartmentAttribute(key: "department", parent: self)
}

private final class Employee {}
extension Employee: Entity {
    typealias CDQIAttribute = EmployeeAttribute
}

private final class EmployeeMO {}
extension EmployeeMO: Entity {
    typealias CDQIAttribute = EmployeeAttribute
    static var cdqiEntityName: String { "Employee" }
}

@Suite struct ProxyKeyPathTests {
    @Test func rootHasAnEmptyKeyPath() {
        let root = EmployeeAttribute()
        #expect(root.cdqiKey == nil)
        #expect(root.cdqiParent == nil)
        #expect(root.cdqiKeyPath == "")
        #expect(root.cdqiName == "")
    }

    @Test func propertiesOfTheRootAreTheirKey() {
        let root = EmployeeAttribute()
        #expect(root.salary.cdqiKey == "salary")
        #expect(root.salary.cdqiKeyPath == "salary")
        #expect(root.salary.cdqiName == "salary")
        #expect(root.salary.cdqiParent === root)
    }

    @Test func nestedPathsJoinWithDotsAndNamesCapitalise() {
        let root = EmployeeAttribute()
        #expect(root.department.name.cdqiKeyPath == "department.name")
        #expect(root.department.name.cdqiName == "departmentName")
        #expect(root.department.manager.lastName.cdqiKeyPath == "department.manager.lastName")
        #expect(root.department.manager.lastName.cdqiName == "departmentManagerLastName")
        #expect(root.department.employees.department.manager.cdqiName == "departmentEmployeesDepartmentManager")
        #expect(root.photo.cdqiKeyPath == "photo")
        #expect(root.department.manager.photo.cdqiName == "departmentManagerPhoto")
    }

    @Test func inheritedPropertiesBuildPathsFromTheSubclass() {
        let root = EmployeeAttribute()
        #expect(root.lastName.cdqiKeyPath == "lastName")
        #expect(root.department.manager.count.cdqiKeyPath == "department.manager.count")
        #expect(root.department.manager.count.cdqiName == "departmentManagerCount")
    }

    @Test func lazyPropertiesReturnTheSameProxy() {
        let root = EmployeeAttribute()
        #expect(root.department === root.department)
        #expect(root.department.parent() === root)
    }

    @Test func aKeyedRootStartsThePath() {
        // Subqueries root their proxies at a variable.
        let variable = EmployeeAttribute(key: "$e")
        #expect(variable.department.name.cdqiKeyPath == "$e.department.name")
        let value = StringAttribute(key: nil, parent: nil)
        #expect(value.cdqiKeyPath == "")
    }

    @Test func keyPathsSurviveTheirRoot() {
        // Parents are weak (no retain cycles): the path is fixed when the proxy is made.
        var root: EmployeeAttribute? = EmployeeAttribute()
        weak let weakRoot = root
        let name = root?.department.name
        root = nil
        #expect(weakRoot == nil)
        #expect(name?.cdqiKeyPath == "department.name")
        #expect(name?.cdqiName == "departmentName")
    }

    @Test func entityNamesDefaultToTheClassName() {
        #expect(Employee.cdqiEntityName == "Employee")
        #expect(EmployeeMO.cdqiEntityName == "Employee")
        #expect(Employee.CDQIAttribute.self == EmployeeAttribute.self)
    }

    @Test func proxiesAreKeyPathExpressionConvertible() {
        let root = EmployeeAttribute()
        let paths: [any KeyPathExpressionConvertible] = [root.salary, root.photo, root.department, root.department.name]
        #expect(paths.map(\.cdqiKeyPath) == ["salary", "photo", "department", "department.name"])
    }

    @Test func aliasesNameTheRightValueTypes() {
        #expect(BooleanAttribute.self == BoolAttribute.self)
        #expect(DataAttribute.self == ScalarAttribute<Data>.self)
        #expect(URIAttribute.self == ScalarAttribute<URL>.self)
        #expect(DateAttribute.self == ScalarAttribute<Date>.self)
        #expect(DecimalAttribute.self == ScalarAttribute<Decimal>.self)
        #expect(UUIDAttribute.self == ScalarAttribute<UUID>.self)
        #expect(Integer16Attribute.self == ScalarAttribute<Int16>.self)
    }
}

private extension DepartmentAttribute {
    func parent() -> EntityAttribute? { cdqiParent }
}
