// Filter expressions from the README, the tests and CoreDataQueryInterface's README, type-checked by
// `FilterTypeCheckTimeTests` (CDQI_E2E=1) with `-warn-long-expression-type-checking=150
// -warnings-as-errors`: an operator overload that makes any of them slow fails that test. Not part
// of the test target (Package.swift excludes this folder).

import CDQIStore
import CoreDataQueryInterface
import Foundation

final class DepartmentAttribute: EntityAttribute, Subqueryable {
    private(set) lazy var budget = DecimalAttribute(key: "budget", parent: self)
    private(set) lazy var name = StringAttribute(key: "name", parent: self)
    private(set) lazy var employees = EmployeeAttribute(key: "employees", parent: self)
}

final class EmployeeAttribute: EntityAttribute, Subqueryable {
    private(set) lazy var firstName = StringAttribute(key: "firstName", parent: self)
    private(set) lazy var hireDate = DateAttribute(key: "hireDate", parent: self)
    private(set) lazy var lastName = StringAttribute(key: "lastName", parent: self)
    private(set) lazy var nickName = StringAttribute(key: "nickName", parent: self)
    private(set) lazy var salary = Integer32Attribute(key: "salary", parent: self)
    private(set) lazy var rate = DoubleAttribute(key: "rate", parent: self)
    private(set) lazy var department = DepartmentAttribute(key: "department", parent: self)
}

final class Department: ManagedObject, Entity {
    typealias CDQIAttribute = DepartmentAttribute
}

final class Employee: ManagedObject, Entity {
    typealias CDQIAttribute = EmployeeAttribute
}

enum Weekday: Int, TypedExpressionConvertible { case sunday = 1, monday }

func readme(_ context: ManagedObjectContext, cutoff: Date) throws {
    _ = try context.from(Employee.self).filter { $0.department.name == "Engineering" }.order { $0.lastName }.all()
    _ = try context.from(Employee.self).filter { $0.salary >= 80_000 }.count()
    _ = try context.from(Employee.self).filter { $0.nickName == nil }.order { $0.firstName }.all()
    _ = try context.from(Employee.self).filter { $0.lastName == ["Lee", "Smith"] }.count()
    _ = try context.from(Employee.self).filter { $0.hireDate < cutoff }.order { $0.hireDate }.all()
    _ = try context.from(Department.self).filter { any($0.employees.salary > 140_000) }.array { $0.name }
    _ = try context.from(Department.self).filter { none($0.employees.salary >= 60_000) }.order { $0.name }.array { $0.name }
    _ = try context.from(Department.self).filter { subquery($0.employees) { $0.salary > 60_000 }.cdqiCount() > 2 }.order { $0.name }.array { $0.name }
    _ = try context.from(Employee.self).order(ascending: false) { $0.salary }.offset(2).limit(3).all()
    _ = try context.from(Employee.self)
        .select { ($0.department.name, $0.salary.cdqiMax(), $0.salary.cdqiAverage()) }
        .groupBy { $0.department.name }.order("department.name").all()
}

func tests(_ context: ManagedObjectContext, limit: Int, small: UInt8, nick: String?) throws {
    let employees = context.from(Employee.self)
    _ = try employees.filter { $0.salary > 50_000 && $0.salary < 100_000 || $0.lastName == "Smith" && $0.nickName != nil }.all()
    _ = try employees.filter { $0.salary > limit && $0.salary == small && $0.lastName == nick && $0.salary == Weekday.monday }.all()
    _ = try employees.filter { $0.salary > $0.salary && $0.rate >= $0.salary && $0.salary == [1, 2] && $0.salary != [limit] }.all()
    _ = try employees.filter { $0.department == nil || $0.department.name != nil && $0.lastName ~= "x" && not($0.rate < 1.5) }.all()
    _ = try employees.filter { $0.rate > 1.5 && $0.rate < 2.5 || $0.rate == 3.0 || $0.salary >= 10 && $0.salary <= 20 }.all()
    _ = try employees.filter { ($0.salary > 1 || $0.salary < -1) && ($0.lastName == "a" || $0.lastName == "b" || $0.lastName == "c") }.all()
    _ = try employees.filter { $0.department.employees.cdqiCount() > 3 && $0.department.employees.salary.cdqiMax() >= 100 }.all()
    _ = try employees.filter { equalTo($0.lastName, "x", options: .caseInsensitive) && $0.salary.cdqiBetween(1, and: 2) && $0.hireDate > Date() }.all()
    _ = try employees.filter { $0.salary > NSNumber(value: 50_000) && $0.salary < NSNumber(value: 90_000.5) }.all()
    _ = try context.from(Department.self).filter {
        any($0.employees.lastName == "x") || all($0.employees.salary > 1) || some($0.employees.salary > 1) || none($0.employees.salary > 1)
    }.all()
    _ = try context.from(Department.self).filter { ($0.employees.salary > 100_000).cdqiAny() && ($0.name == "Legal").cdqiNot() }.all()
    _ = try context.from(Department.self).filter { subquery($0.employees) { $0.salary > 100 && $0.nickName == nil }.cdqiCount() > 2 && $0.budget > 10 }.all()
    let e = Employee.CDQIAttribute()
    let names: [String] = try employees.filter(any(e.department.employees.lastName == "Smith")).order(e.lastName).array(e.firstName)
    _ = names
    // The slowest of the tests' expressions (QueryExecutionTests): a key-path `array` mapped in place.
    _ = try employees.array("lastName").map { $0 as? String } == ["Smith", "Jones", "Müller"]
    _ = try employees.value("salary") as? Int == 70_000
    _ = try employees.order({ $0.lastName }, { $0.firstName }).select({ $0.department.name }, { $0.salary.cdqiMax() }).all()
}
