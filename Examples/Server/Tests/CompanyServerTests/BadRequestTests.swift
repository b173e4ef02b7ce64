import CompanyAPI
import Foundation
import NIOHTTP1
import Testing

/// Bad input gets a client error naming the problem, changes nothing, and leaves the server serving.
@Suite struct BadRequestTests {
    @Test func badInputGetsClientErrorsAndChangesNothing() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("company-server-bad-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }

        try await RunningServer.with(store: folder.appendingPathComponent("Company.sqlite")) { port in
            try await HTTPConnection.withConnection(port: port) { connection in
                func status(_ method: HTTPMethod, _ uri: String, _ body: String? = nil) async throws -> Int {
                    try await connection.send(method, uri, json: body.map { Data($0.utf8) }).status
                }
                #expect(try await status(.GET, "/employees/abc") == 400)
                #expect(try await status(.GET, "/employees/99999999999999999999") == 400)
                #expect(try await status(.GET, "/employees/0") == 404)
                #expect(try await status(.GET, "/employees/-3") == 404)
                #expect(try await status(.GET, "/employees/13") == 404)  // the sample has keys 1 to 12
                #expect(try await status(.PATCH, "/employees/13", #"{"salary": 1}"#) == 404)
                #expect(try await status(.DELETE, "/employees/13") == 404)
                #expect(try await status(.GET, "/employees?limit=5000") == 400)
                #expect(try await status(.GET, "/employees?offset=-1") == 400)
                #expect(try await status(.GET, "/employees?minSalary=lots") == 400)
                #expect(try await status(.POST, "/employees", "{not json") == 400)
                #expect(try await status(.POST, "/employees", #"{"firstName": "A", "lastName": "B"}"#) == 400)  // no salary
                #expect(try await status(.POST, "/employees", #"{"firstName": "A", "lastName": "B", "salary": 3000000000}"#) == 400)
                #expect(try await status(.POST, "/employees", #"{"firstName": "", "lastName": "B", "salary": 1}"#) == 400)
                #expect(try await status(.POST, "/employees", #"{"firstName": "A", "lastName": "B", "salary": 1, "department": "Nowhere"}"#) == 422)
                #expect(try await status(.PATCH, "/employees/1", #"{"department": "Nowhere"}"#) == 422)
                #expect(try await status(.PATCH, "/employees/1", #"{"lastName": ""}"#) == 400)
                #expect(try await status(.POST, "/departments", #"{"name": "Sales"}"#) == 409)
                #expect(try await status(.POST, "/departments", #"{"name": ""}"#) == 400)
                #expect(try await status(.GET, "/nowhere") == 404)

                // Nothing changed: still the sample's 12 employees and 5 departments, Ann (key 1) as she was.
                let everyone = try JSONDecoder().decode(EmployeeList.self, from: try await connection.send(.GET, "/employees").body)
                #expect(everyone.employees.count == 12)
                let departments = try JSONDecoder().decode(DepartmentList.self, from: try await connection.send(.GET, "/departments").body)
                #expect(departments.departments.map(\.name) == ["Engineering", "Legal", "Marketing", "Sales", "Support"])
                let ann = try JSONDecoder().decode(EmployeeRecord.self, from: try await connection.send(.GET, "/employees/1").body)
                #expect(ann == EmployeeRecord(id: 1, firstName: "Ann", lastName: "Lee", nickName: "Annie", salary: 120_000, department: "Engineering"))

                // An empty department filter selects the employees without one: Liam alone.
                let none = try JSONDecoder().decode(EmployeeList.self, from: try await connection.send(.GET, "/employees?department=").body)
                #expect(none.employees.map(\.firstName) == ["Liam"])
                let noneStats = try JSONDecoder().decode(SalaryReport.self, from: try await connection.send(.GET, "/stats?department=").body)
                #expect(noneStats.departments == [SalaryStats(department: nil, employees: 1, totalSalary: 52_000, minSalary: 52_000, maxSalary: 52_000)])
            }
        }
    }
}
