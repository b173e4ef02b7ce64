import CDQIStore
import CoreDataQueryInterface
import Foundation
import Hummingbird

/// The API's routes over one shared container. Every request uses a context of its own: reads run
/// through the async query forms (`all(in:)`, `dictionaries(in:)`), which make a new background
/// context per call, and object work runs in `performBackgroundTask`.
///
/// | Route | Does |
/// | --- | --- |
/// | `GET /departments` | every department, by name |
/// | `POST /departments` | creates one: `{"name": "Legal"}` (409 when the name is taken) |
/// | `GET /employees` | employees by last and first name; filters in ``EmployeeFilter`` |
/// | `GET /employees/:id` | one employee (404 when there is none) |
/// | `POST /employees` | creates one from a ``NewEmployee``; 201 with the ``EmployeeRecord`` |
/// | `PATCH /employees/:id` | changes the fields of an ``EmployeeChanges`` |
/// | `DELETE /employees/:id` | deletes one; 204 |
/// | `GET /stats` | salary count, total, min and max per department (`?department=` for one, empty for none) |
public struct CompanyRoutes: Sendable {
    /// The store every request reads and writes.
    public let container: PersistentContainer

    public init(container: PersistentContainer) {
        self.container = container
    }

    /// A router with every route.
    public func router() -> Router<BasicRequestContext> {
        let router = Router()
        router.add(middleware: ErrorLoggingMiddleware())
        router.get("departments") { _, _ in try await self.departments() }
        router.post("departments") { request, context in
            let new = try await request.decode(as: DepartmentRecord.self, context: context)
            return EditedResponse(status: .created, response: try await self.createDepartment(new))
        }
        router.get("employees") { request, _ in
            try await self.employees(EmployeeFilter(request.uri.queryParameters))
        }
        router.get("employees/:id") { _, context in
            try await self.employee(context.parameters.require("id", as: Int64.self))
        }
        router.post("employees") { request, context in
            let new = try await request.decode(as: NewEmployee.self, context: context)
            return EditedResponse(status: .created, response: try await self.createEmployee(new))
        }
        router.patch("employees/:id") { request, context in
            let id = try context.parameters.require("id", as: Int64.self)
            let changes = try await request.decode(as: EmployeeChanges.self, context: context)
            return try await self.updateEmployee(id, changes)
        }
        router.delete("employees/:id") { _, context in
            try await self.deleteEmployee(context.parameters.require("id", as: Int64.self))
            return HTTPResponse.Status.noContent
        }
        router.get("stats") { request, _ in
            try await self.stats(department: request.uri.queryParameters.get("department"))
        }
        return router
    }

    // MARK: Reads, through the async query forms

    func departments() async throws -> DepartmentList {
        let names = try await Query.from(Department.self).order { $0.name }.array(in: container) { $0.name }
        return DepartmentList(departments: names.compactMap { $0.map(DepartmentRecord.init(name:)) })
    }

    func employees(_ filter: EmployeeFilter) async throws -> EmployeeList {
        // One typed row per employee: its object ID (the evaluated object, `$0`, as Core Data gives it)
        // and its columns, from one statement, so from one snapshot.
        let rows = try await filter.query
            .select { ($0, $0.firstName, $0.lastName, $0.nickName, $0.salary, $0.department.name) }
            .all(in: container)
        return try EmployeeList(
            employees: rows.map { row throws(HTTPError) in
                guard let id = row.0?.primaryKey, let firstName = row.1, let lastName = row.2 else {
                    throw HTTPError(.internalServerError, message: "an employee row lacks its key or a required name")
                }
                return EmployeeRecord(
                    id: id, firstName: firstName, lastName: lastName, nickName: row.3, salary: row.4 ?? 0, department: row.5)
            })
    }

    func stats(department: String?) async throws -> SalaryReport {
        var query = Query.from(Employee.self)
        if let department {
            query =
                department.isEmpty
                ? query.filter { $0.department == nil }
                : query.filter { $0.department.name == department }
        }
        let rows =
            try await query
            .select {
                [
                    $0.department.name, $0.salary.cdqiCount(alias: "employees"), $0.salary.cdqiSum(alias: "total"),
                    $0.salary.cdqiMin(alias: "min"), $0.salary.cdqiMax(alias: "max"),
                ]
            }
            .groupBy { $0.department.name }
            .order { $0.department.name }
            .dictionaries(in: container)
        return try SalaryReport(
            departments: rows.map { row throws(HTTPError) in
                guard let count = row["employees"] as? Int, let total = row["total"] as? Int,
                    let min = (row["min"] as? Int).flatMap(Int32.init(exactly:)),
                    let max = (row["max"] as? Int).flatMap(Int32.init(exactly:))
                else {
                    throw HTTPError(.internalServerError, message: "a salary aggregate is missing or out of range: \(row)")
                }
                return SalaryStats(
                    department: row["departmentName"] as? String, employees: Int64(count), totalSalary: Int64(total),
                    minSalary: min, maxSalary: max)
            })
    }

    func employee(_ id: Int64) async throws -> EmployeeRecord {
        try await container.performBackgroundTask { context in
            try EmployeeRecord(Self.existingEmployee(id, in: context))
        }
    }

    // MARK: Writes, each in performBackgroundTask with one save

    func createDepartment(_ new: DepartmentRecord) async throws -> DepartmentRecord {
        let name = new.name
        guard !name.isEmpty else { throw HTTPError(.badRequest, message: "a department needs a name") }
        return try await container.performBackgroundTask { context in
            // The Company model has no uniqueness constraint: this check keeps names unique for requests
            // one after the other, but two concurrent requests may both pass it before either saves. A
            // real service would add a constraint on `name` to the model.
            guard try context.from(Department.self).filter({ $0.name == name }).count() == 0 else {
                throw HTTPError(.conflict, message: "a department named '\(name)' exists")
            }
            let department = try context.insert(Department.self)
            department.name = name
            try context.save()
            return DepartmentRecord(name: name)
        }
    }

    func createEmployee(_ new: NewEmployee) async throws -> EmployeeRecord {
        guard !new.firstName.isEmpty, !new.lastName.isEmpty else {
            throw HTTPError(.badRequest, message: "an employee needs a first and a last name")
        }
        return try await container.performBackgroundTask { context in
            let employee = try context.insert(Employee.self)
            employee.firstName = new.firstName
            employee.lastName = new.lastName
            employee.nickName = new.nickName
            employee.salary = new.salary
            employee.department = try new.department.map { try Self.department(named: $0, in: context) }
            try context.save()
            return try EmployeeRecord(employee)
        }
    }

    func updateEmployee(_ id: Int64, _ changes: EmployeeChanges) async throws -> EmployeeRecord {
        if changes.firstName == "" || changes.lastName == "" {
            throw HTTPError(.badRequest, message: "names cannot be empty")
        }
        return try await container.performBackgroundTask { context in
            let employee = try Self.existingEmployee(id, in: context)
            if let firstName = changes.firstName { employee.firstName = firstName }
            if let lastName = changes.lastName { employee.lastName = lastName }
            if let nickName = changes.nickName { employee.nickName = nickName }
            if changes.clearNickName == true { employee.nickName = nil }
            if let salary = changes.salary { employee.salary = salary }
            if let department = changes.department { employee.department = try Self.department(named: department, in: context) }
            try context.save()
            return try EmployeeRecord(employee)
        }
    }

    func deleteEmployee(_ id: Int64) async throws {
        try await container.performBackgroundTask { context in
            try context.delete(Self.existingEmployee(id, in: context))
            try context.save()
        }
    }

    // MARK: Lookups inside a context

    /// The employee with this primary key, or a 404.
    static func existingEmployee(_ id: Int64, in context: ManagedObjectContext) throws -> Employee {
        let uri = "x-coredata://\(context.coordinator.storeIdentifier)/Employee/p\(id)"
        guard id > 0, let objectID = context.objectID(forURIString: uri) else {
            throw HTTPError(.notFound, message: "no employee \(id)")
        }
        let object: ManagedObject
        do {
            object = try context.existingObject(with: objectID)
        } catch .objectNotFound {
            throw HTTPError(.notFound, message: "no employee \(id)")
        }
        guard let employee = object as? Employee else {
            throw HTTPError(.notFound, message: "no employee \(id)")
        }
        return employee
    }

    /// The department with this name, or a 422.
    static func department(named name: String, in context: ManagedObjectContext) throws -> Department {
        guard let department = try context.from(Department.self).filter({ $0.name == name }).first() else {
            throw HTTPError(.unprocessableContent, message: "no department named '\(name)'")
        }
        return department
    }
}

extension EmployeeRecord {
    /// The record of a saved employee, read inside its context.
    init(_ employee: Employee) throws {
        guard let id = employee.objectID.primaryKey else {
            throw HTTPError(.internalServerError, message: "employee \(employee.objectID) is not saved")
        }
        self.init(
            id: id, firstName: employee.firstName, lastName: employee.lastName, nickName: employee.nickName,
            salary: employee.salary, department: employee.department?.name)
    }
}
