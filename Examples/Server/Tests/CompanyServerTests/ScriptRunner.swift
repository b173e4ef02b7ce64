import CompanyAPI
import Foundation
import NIOHTTP1

/// The outcome of a client's script against a running server.
struct ClientRun: Sendable {
    let client: Int
    /// Each answer, with employees named by label (their primary keys differ between runs), so that
    /// two runs compare equal exactly when they answered the same.
    var outcomes: [Expected] = []
    /// Each answer that differed from the script's expectation, or that failed, one sentence each.
    var failures: [String] = []
    /// The primary key the server gave each slot's employee.
    var keys: [Int64] = []
    /// How long each request took, from sending it to reading the end of its answer.
    var latencies: [Duration] = []
}

/// Runs a client's script over one connection, checking every answer as it arrives.
struct ScriptRunner {
    let script: ClientScript

    func run(on connection: inout HTTPConnection) async -> ClientRun {
        var run = ClientRun(client: script.client)
        let clock = ContinuousClock()
        for (index, (step, expected)) in script.steps.enumerated() {
            let started = clock.now
            do {
                let outcome = try await perform(step, on: &connection, run: &run)
                run.latencies.append(clock.now - started)
                run.outcomes.append(outcome)
                if outcome != expected {
                    run.failures.append("client \(script.client) step \(index) \(step): expected \(expected), got \(outcome)")
                }
            } catch {
                run.latencies.append(clock.now - started)
                run.outcomes.append(.notFound)
                run.failures.append("client \(script.client) step \(index) \(step): \(error)")
            }
        }
        return run
    }

    private func perform(_ step: Step, on connection: inout HTTPConnection, run: inout ClientRun) async throws -> Expected {
        switch step {
        case .createDepartment(let name):
            let result = try await connection.send(.POST, "/departments", json: JSONEncoder().encode(DepartmentRecord(name: name)))
            try Self.require(result, status: 201)
            return .department(try JSONDecoder().decode(DepartmentRecord.self, from: result.body).name)
        case .create(let new):
            let result = try await connection.send(.POST, "/employees", json: JSONEncoder().encode(new))
            try Self.require(result, status: 201)
            let record = try JSONDecoder().decode(EmployeeRecord.self, from: result.body)
            guard record.id > 0, !run.keys.contains(record.id) else { throw RunError.badKey(record.id) }
            run.keys.append(record.id)
            return .employee(status: 201, label(record, run))
        case .update(let slot, let changes):
            let result = try await connection.send(.PATCH, "/employees/\(try key(slot, run))", json: JSONEncoder().encode(changes))
            return try employeeOrNotFound(result, run)
        case .delete(let slot):
            let result = try await connection.send(.DELETE, "/employees/\(try key(slot, run))")
            if result.status == 404 { return .notFound }
            try Self.require(result, status: 204)
            return .noContent
        case .get(let slot):
            return try employeeOrNotFound(try await connection.send(.GET, "/employees/\(try key(slot, run))"), run)
        case .list(let parameters):
            let result = try await connection.send(.GET, "/employees?" + Self.query(parameters))
            try Self.require(result, status: 200)
            return .employees(try JSONDecoder().decode(EmployeeList.self, from: result.body).employees.map { label($0, run) })
        case .stats(let department):
            let result = try await connection.send(.GET, "/stats?" + Self.query([("department", department)]))
            try Self.require(result, status: 200)
            return .stats(try JSONDecoder().decode(SalaryReport.self, from: result.body).departments)
        }
    }

    private func employeeOrNotFound(_ result: HTTPResult, _ run: ClientRun) throws -> Expected {
        if result.status == 404 { return .notFound }
        try Self.require(result, status: 200)
        return .employee(status: 200, label(try JSONDecoder().decode(EmployeeRecord.self, from: result.body), run))
    }

    private func key(_ slot: Int, _ run: ClientRun) throws -> Int64 {
        guard run.keys.indices.contains(slot) else { throw RunError.unknownSlot(slot) }
        return run.keys[slot]
    }

    /// The record with its key replaced by the label of this client's slot, or "sample" for an
    /// employee of the sample data, or "key N" for anyone else's (which a client never sees).
    private func label(_ record: EmployeeRecord, _ run: ClientRun) -> ExpectedEmployee {
        let label =
            if let slot = run.keys.firstIndex(of: record.id) {
                "c\(script.client)#\(slot)"
            } else if record.id <= Int64(SampleData.employees.count) {  // inserted first, in one save: keys 1…12
                "sample"
            } else {
                "key \(record.id)"
            }
        return ExpectedEmployee(
            label: label, firstName: record.firstName, lastName: record.lastName, nickName: record.nickName,
            salary: record.salary, department: record.department)
    }

    static func require(_ result: HTTPResult, status: Int) throws {
        guard result.status == status else {
            throw RunError.status(result.status, expected: status, body: String(decoding: result.body, as: UTF8.self))
        }
    }

    /// `name=value&…`, percent-encoded.
    static func query(_ parameters: [(String, String)]) -> String {
        parameters.map { name, value in
            "\(name)=\(value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? value)"
        }.joined(separator: "&")
    }
}

enum RunError: Error, CustomStringConvertible {
    case status(Int, expected: Int, body: String)
    case badKey(Int64)
    case unknownSlot(Int)

    var description: String {
        switch self {
        case .status(let status, let expected, let body): "status \(status) (expected \(expected)): \(body)"
        case .badKey(let key): "the server gave a new employee the key \(key), not positive or given before"
        case .unknownSlot(let slot): "slot \(slot) was never created (an earlier create failed)"
        }
    }
}
