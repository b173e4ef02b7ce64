import CDQIStore
import CoreDataQueryInterface
import Hummingbird

/// The filters of `GET /employees`, from its query string:
/// `?department=Sales&minSalary=50000&maxSalary=90000&lastNamePrefix=Sm&limit=10&offset=20`.
/// `department=` with an empty value selects the employees without a department.
struct EmployeeFilter: Sendable {
    var department: String?
    var minSalary: Int32?
    var maxSalary: Int32?
    var lastNamePrefix: String?
    var limit: Int?
    var offset: Int?

    /// The most employees one request returns.
    static let maximumLimit = 1_000

    /// Reads the filters; a number that does not parse, or a limit or offset out of range, is a 400.
    init(_ parameters: Parameters) throws {
        department = parameters.get("department")
        minSalary = try Self.number("minSalary", parameters)
        maxSalary = try Self.number("maxSalary", parameters)
        lastNamePrefix = parameters.get("lastNamePrefix")
        limit = try Self.number("limit", parameters)
        offset = try Self.number("offset", parameters)
        if let limit, !(0...Self.maximumLimit).contains(limit) {
            throw HTTPError(.badRequest, message: "limit must be between 0 and \(Self.maximumLimit)")
        }
        if let offset, offset < 0 {
            throw HTTPError(.badRequest, message: "offset must not be negative")
        }
    }

    private static func number<N: FixedWidthInteger>(_ name: String, _ parameters: Parameters) throws -> N? {
        guard let text = parameters.get(name) else { return nil }
        guard let value = N(text) else {
            throw HTTPError(.badRequest, message: "\(name) must be an integer, not '\(text)'")
        }
        return value
    }

    /// The query these filters make (every filter a bound parameter), ordered by last then first name.
    var query: Query<Employee, Employee> {
        var query = Query.from(Employee.self)
        if let department {
            query =
                department.isEmpty
                ? query.filter { $0.department == nil }
                : query.filter { $0.department.name == department }
        }
        if let minSalary { query = query.filter { $0.salary >= minSalary } }
        if let maxSalary { query = query.filter { $0.salary <= maxSalary } }
        if let lastNamePrefix { query = query.filter { $0.lastName.cdqiBeginsWith(lastNamePrefix) } }
        query = query.order({ $0.lastName }, { $0.firstName })
        if let offset { query = query.offset(offset) }
        if let limit { query = query.limit(limit) }
        return query
    }
}
