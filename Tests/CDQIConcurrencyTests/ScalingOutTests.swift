import CDQIModel
import CDQIPostgres
import CDQIStore
import Foundation
import Testing

/// The README's PostgreSQL snippet, run against a server (`CDQI_POSTGRES_URL`).
@Suite(
    "README: Scaling out with PostgreSQL",
    .enabled(if: ProcessInfo.processInfo.environment["CDQI_POSTGRES_URL"] != nil, "CDQI_POSTGRES_URL is not set"))
struct ScalingOutTests {
    @Test("the snippet reads the high earners of a store in a PostgreSQL schema")
    func snippetRuns() throws {
        let server = ProcessInfo.processInfo.environment["CDQI_POSTGRES_URL"] ?? ""
        let schema = "cdqi_readme_" + UUID().uuidString.prefix(8).lowercased()
        let databaseURL = server + (server.contains("?") ? "&" : "?") + "schema=" + schema
        let url = try PostgresURL(databaseURL)
        let admin = try PostgresConnection(url: url)
        defer { try? admin.execute("DROP SCHEMA IF EXISTS \(PostgresConnection.quoteIdentifier(url.schema)) CASCADE") }
        // The fixture's five employees, saved through a container on the schema.
        let container = try PersistentContainer(model: CompanyModel.self, postgresURL: databaseURL)
        let context = container.newContext()
        for (first, last, salary) in [("Ann", "Lee", 120_000), ("Bob", "Smith", 95_000), ("Zoe", "Adams", 130_000)] as [(String, String, Int32)] {
            let employee = try context.insertNewObject(forEntityName: "Employee")
            try employee.setValue(first, forKey: "firstName")
            try employee.setValue(last, forKey: "lastName")
            try employee.setValue(salary, forKey: "salary")
        }
        try context.save()
        // Above 100,000: Lee (120,000) and Adams (130,000), by last name.
        #expect(try highEarners(databaseURL: databaseURL) == ["Adams", "Lee"])
    }
}
