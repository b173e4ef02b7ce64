import Hummingbird

// The JSON the API reads and writes. Employees are named by their primary key (`Z_PK`, the `p12` of
// Core Data's object ID URI), departments by their name.

/// An employee as the API returns it.
public struct EmployeeRecord: ResponseCodable, Equatable, Sendable {
    /// The primary key, the `:id` of `/employees/:id`.
    public var id: Int64
    public var firstName: String
    public var lastName: String
    public var nickName: String?
    public var salary: Int32
    /// The department's name, or `nil` for an employee without one.
    public var department: String?

    public init(id: Int64, firstName: String, lastName: String, nickName: String?, salary: Int32, department: String?) {
        self.id = id
        self.firstName = firstName
        self.lastName = lastName
        self.nickName = nickName
        self.salary = salary
        self.department = department
    }
}

/// The body of `GET /employees`: the employees matching the filters, by last name then first name.
public struct EmployeeList: ResponseCodable, Equatable, Sendable {
    public var employees: [EmployeeRecord]

    public init(employees: [EmployeeRecord]) {
        self.employees = employees
    }
}

/// The body of `POST /employees`.
public struct NewEmployee: Codable, Equatable, Sendable {
    public var firstName: String
    public var lastName: String
    public var nickName: String?
    public var salary: Int32
    /// The name of an existing department, or `nil`.
    public var department: String?

    public init(firstName: String, lastName: String, nickName: String? = nil, salary: Int32, department: String? = nil) {
        self.firstName = firstName
        self.lastName = lastName
        self.nickName = nickName
        self.salary = salary
        self.department = department
    }
}

/// The body of `PATCH /employees/:id`: the fields to change; absent fields keep their value.
/// `clearNickName: true` removes the nickname (JSON cannot tell an absent field from `null` here).
public struct EmployeeChanges: Codable, Equatable, Sendable {
    public var firstName: String?
    public var lastName: String?
    public var nickName: String?
    public var clearNickName: Bool?
    public var salary: Int32?
    /// The name of an existing department to move the employee to.
    public var department: String?

    public init(
        firstName: String? = nil, lastName: String? = nil, nickName: String? = nil, clearNickName: Bool? = nil,
        salary: Int32? = nil, department: String? = nil
    ) {
        self.firstName = firstName
        self.lastName = lastName
        self.nickName = nickName
        self.clearNickName = clearNickName
        self.salary = salary
        self.department = department
    }
}

/// A department as the API returns it.
public struct DepartmentRecord: ResponseCodable, Equatable, Sendable {
    public var name: String

    public init(name: String) {
        self.name = name
    }
}

/// The body of `GET /departments`: every department, by name.
public struct DepartmentList: ResponseCodable, Equatable, Sendable {
    public var departments: [DepartmentRecord]

    public init(departments: [DepartmentRecord]) {
        self.departments = departments
    }
}

/// The salaries of one department (or of the employees without one), from `GET /stats`.
public struct SalaryStats: ResponseCodable, Equatable, Sendable {
    /// The department's name; `nil` for the employees without a department.
    public var department: String?
    public var employees: Int64
    public var totalSalary: Int64
    public var minSalary: Int32
    public var maxSalary: Int32

    public init(department: String?, employees: Int64, totalSalary: Int64, minSalary: Int32, maxSalary: Int32) {
        self.department = department
        self.employees = employees
        self.totalSalary = totalSalary
        self.minSalary = minSalary
        self.maxSalary = maxSalary
    }
}

/// The body of `GET /stats`: one entry per department that has employees, by department name (the
/// employees without a department first), or only the department `?department=` names.
public struct SalaryReport: ResponseCodable, Equatable, Sendable {
    public var departments: [SalaryStats]

    public init(departments: [SalaryStats]) {
        self.departments = departments
    }
}
