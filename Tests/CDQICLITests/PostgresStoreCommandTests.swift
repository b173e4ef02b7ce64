import CDQIPostgres
import Foundation
import Testing

/// A fresh schema of the PostgreSQL server `CDQI_POSTGRES_URL` names (bin/postgres-cluster starts
/// one), dropped when the test ends.
final class PostgresTestSchema {
    /// The server's URL as the environment gives it.
    static let serverURL = ProcessInfo.processInfo.environment["CDQI_POSTGRES_URL"]
    static let isAvailable = serverURL.map { !$0.isEmpty } ?? false

    let name: String
    /// The schema's `postgres://` URL, password included (what a user types).
    let url: String
    private let connection: PostgresConnection

    init() throws {
        let server = try #require(Self.serverURL)
        name = "cdqi_cli_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(12)
        url = server + (server.contains("?") ? "&" : "?") + "schema=" + name
        connection = try PostgresConnection(url: server)
    }

    deinit {
        try? connection.execute("DROP SCHEMA IF EXISTS " + PostgresConnection.quoteIdentifier(name) + " CASCADE")
        connection.close()
    }

    /// The password in the server URL, which no command may print.
    static var password: String? { serverURL.flatMap { try? PostgresURL($0).password } }

    /// The number of tables in the schema (0 when it does not exist).
    func tableCount() throws -> Int64 {
        let result = try connection.query(
            "SELECT count(*) FROM information_schema.tables WHERE table_schema = $1", [.string(name)])
        return try result.int64(row: 0, column: 0) ?? -1
    }
}

/// `cdqi query`, `export`, `import` and `inspect` with a `postgres://` URL in place of the store file.
@Suite(.enabled(if: PostgresTestSchema.isAvailable, "CDQI_POSTGRES_URL is not set (bin/postgres-cluster start)"))
struct PostgresStoreCommandTests {
    static let model = CommandRunner.packageRoot.appendingPathComponent("Fixtures/Company.xcdatamodeld").path

    /// No output of a command shows the password of the URL it was given.
    private func expectNoPassword(_ output: CommandRunner.Output, sourceLocation: SourceLocation = #_sourceLocation) {
        guard let password = PostgresTestSchema.password, !password.isEmpty else { return }
        #expect(!output.standardOutput.contains(password), sourceLocation: sourceLocation)
        #expect(!output.standardError.contains(password), sourceLocation: sourceLocation)
    }

    /// A schema holding StoreCommandTests' document (Ann is Employee/1, Bob Employee/2; Sales is
    /// Department/1, R&D Department/2).
    private func seededSchema(in folder: TemporaryFolder) throws -> PostgresTestSchema {
        let schema = try PostgresTestSchema()
        let documentURL = folder.url.appendingPathComponent("seed.json")
        try Data(StoreCommandTests.document.utf8).write(to: documentURL)
        let output = try CommandRunner.run(["import", Self.model, schema.url, documentURL.path])
        #expect(output.status == 0, "\(output.standardError)")
        #expect(output.standardOutput == "imported 4 objects: 2 Department, 2 Employee\n")
        expectNoPassword(output)
        return schema
    }

    @Test func queryOnAURLPrintsTheRowsCountsAndGroups() throws {
        let folder = try TemporaryFolder()
        let schema = try seededSchema(in: folder)
        let table = try CommandRunner.run(["query", Self.model, schema.url, "--entity", "Employee", "--order", "lastName"])
        #expect(table.status == 0, "\(table.standardError)")
        #expect(
            table.standardOutput == """
                _id         firstName  hireDate                lastName  nickName  salary  department
                ----------  ---------  ----------------------  --------  --------  ------  ------------
                Employee/2  Bob        NULL                    Ames      Bobby     50000   Department/1
                Employee/1  Ann        2020-02-29T12:00:00.5Z  Lee       NULL      120000  Department/2

                """)
        let csv = try CommandRunner.run([
            "query", Self.model, schema.url, "--entity", "Employee", "--select", "firstName", "--select", "department.name",
            "--order", "firstName", "--format", "csv",
        ])
        #expect(csv.status == 0, "\(csv.standardError)")
        #expect(csv.standardOutput == "firstName,department.name\r\nAnn,\"R&D, \"\"Labs\"\"\"\r\nBob,Sales\r\n")
        let count = try CommandRunner.run(["query", Self.model, schema.url, "--entity", "Employee", "--count", "--where", "salary < 100000"])
        #expect(count.standardOutput == "1\n", "\(count.standardError)")
        let grouped = try CommandRunner.run([
            "query", Self.model, schema.url, "--entity", "Employee", "--select", "department.name", "--select", "sum:(salary)",
            "--group-by", "department.name", "--order", "department.name:desc", "--format", "csv",
        ])
        #expect(grouped.status == 0, "\(grouped.standardError)")
        #expect(grouped.standardOutput == "department.name,sum:(salary)\r\nSales,50000\r\n\"R&D, \"\"Labs\"\"\",120000\r\n")
        let explain = try CommandRunner.run(["query", Self.model, schema.url, "--entity", "Employee", "--explain", "--where", "salary > 1"])
        #expect(explain.status == 0, "\(explain.standardError)")
        #expect(explain.standardOutput.contains("\"ZEMPLOYEE\""), "\(explain.standardOutput)")
        for output in [table, csv, count, grouped, explain] { expectNoPassword(output) }
    }

    @Test func queryAndExportWithoutAModelReadTheModelTheSchemaCarries() throws {
        let folder = try TemporaryFolder()
        let schema = try seededSchema(in: folder)
        let count = try CommandRunner.run(["query", schema.url, "--entity", "Department", "--count"])
        #expect(count.status == 0, "\(count.standardError)")
        #expect(count.standardOutput == "2\n")
        let withModel = try CommandRunner.run(["export", Self.model, schema.url])
        let carried = try CommandRunner.run(["export", schema.url])
        #expect(carried.status == 0, "\(carried.standardError)")
        #expect(carried.standardOutput == withModel.standardOutput)
    }

    @Test func exportOnAURLWritesTheDocumentOfTheFileStore() throws {
        let folder = try TemporaryFolder()
        let schema = try seededSchema(in: folder)
        let export = try CommandRunner.run(["export", Self.model, schema.url])
        #expect(export.status == 0, "\(export.standardError)")
        // The same text StoreCommandTests expects from the SQLite file holding the same document.
        #expect(
            export.standardOutput == #"""
                {
                  "Department": [
                    {"_id": "Department/1", "budget": null, "name": "Sales", "employees": ["Employee/2"]},
                    {"_id": "Department/2", "budget": null, "name": "R&D, \"Labs\"", "employees": ["Employee/1"]}
                  ],
                  "Employee": [
                    {"_id": "Employee/1", "firstName": "Ann", "hireDate": "2020-02-29T12:00:00.5Z", "lastName": "Lee", "nickName": null, "salary": 120000, "department": "Department/2"},
                    {"_id": "Employee/2", "firstName": "Bob", "hireDate": null, "lastName": "Ames", "nickName": "Bobby", "salary": 50000, "department": "Department/1"}
                  ],
                  "TestEntity": []
                }

                """#)
        let entity = try CommandRunner.run(["export", Self.model, schema.url, "--entity", "Department"])
        #expect(
            entity.standardOutput == #"""
                {
                  "Department": [
                    {"_id": "Department/1", "budget": null, "name": "Sales"},
                    {"_id": "Department/2", "budget": null, "name": "R&D, \"Labs\""}
                  ]
                }

                """#, "\(entity.standardError)")
        expectNoPassword(export)
    }

    @Test func inspectOnAURLShowsTheEntitiesCountsAndMetadata() throws {
        let folder = try TemporaryFolder()
        let schema = try seededSchema(in: folder)
        let output = try CommandRunner.run(["inspect", schema.url, Self.model])
        #expect(output.status == 0, "\(output.standardError)")
        let text = output.standardOutput
        let shown = try PostgresURL(schema.url).description
        #expect(text.hasPrefix("store: \(shown)\nuuid: "), "\(text)")
        #expect(text.contains("entity version hashes (3):\n  Department "))
        #expect(text.contains("carries its model (Z_MODELCACHE): yes (3 entities, matching the hashes)\n"), "\(text)")
        #expect(text.contains("version: 'Company'\n"), "\(text)")
        #expect(text.hasSuffix("objects:\n  Department 2\n  Employee 2\n  TestEntity 0\n"), "\(text)")
        expectNoPassword(output)
    }

    @Test func importIntoAURLIsAllOrNothing() throws {
        let folder = try TemporaryFolder()
        let schema = try seededSchema(in: folder)
        // The second employee misses a required lastName: the save is refused, the first is not kept.
        let bad = folder.url.appendingPathComponent("bad.json")
        try Data(
            #"{"Employee": [{"_id": "c", "firstName": "Cy", "lastName": "Coe", "salary": 1}, {"_id": "d", "firstName": "Di", "salary": 2}]}"#
                .utf8
        ).write(to: bad)
        let refused = try CommandRunner.run(["import", Self.model, schema.url, bad.path])
        #expect(refused.status == 1)
        #expect(refused.standardError.contains("lastName"), "\(refused.standardError)")
        let count = try CommandRunner.run(["query", Self.model, schema.url, "--entity", "Employee", "--count"])
        #expect(count.standardOutput == "2\n", "\(count.standardError)")
        expectNoPassword(refused)
    }

    @Test func aBundleOpensASchemaWithTheVersionThatWroteIt() throws {
        let folder = try TemporaryFolder()
        let schema = try PostgresTestSchema()
        let bundle = LibraryVersion1Store.bundle
        let document = folder.url.appendingPathComponent("v1.json")
        try Data(
            #"{"Book": [{"_id": "d", "title": "Dune", "isbn": "0441013597", "addedAt": "2001-01-01T00:16:40Z", "shelf": "f"}], "Shelf": [{"_id": "f", "name": "Fiction"}]}"#
                .utf8
        ).write(to: document)
        let imported = try CommandRunner.run(["import", bundle, schema.url, document.path, "--model-version", "Library"])
        #expect(imported.status == 0, "\(imported.standardError)")
        // addedAt exists only in 'Library': the bundle alone picks that version from the schema's metadata.
        let query = try CommandRunner.run([
            "query", bundle, schema.url, "--entity", "Book", "--where", "addedAt < CAST(1001, 'NSDate')",
            "--select", "title", "--select", "shelf.name", "--format", "csv",
        ])
        #expect(query.status == 0, "\(query.standardError)")
        #expect(query.standardOutput == "title,shelf.name\r\nDune,Fiction\r\n")
        let inspect = try CommandRunner.run(["inspect", schema.url, bundle])
        #expect(inspect.standardOutput.contains("version: 'Library'\n"), "\(inspect.standardOutput)")
        let refused = try CommandRunner.run(["query", bundle, schema.url, "--entity", "Book", "--model-version", "Library 2"])
        #expect(refused.status == 1)
        #expect(refused.standardError.contains("the store was written for a different model:"), "\(refused.standardError)")
        #expect(refused.standardError.contains("  The store matches version \"Library\" of the bundle: add --model-version \"Library\"."))
    }

    @Test func aDocumentWithProblemsCreatesNoStoreInAnEmptySchema() throws {
        let folder = try TemporaryFolder()
        let schema = try PostgresTestSchema()
        let bad = folder.url.appendingPathComponent("bad.json")
        try Data(#"{"Employee": [{"_id": "e", "firstName": "Al", "lastName": "Ng", "salary": "lots"}]}"#.utf8).write(to: bad)
        let refused = try CommandRunner.run(["import", Self.model, schema.url, bad.path])
        #expect(refused.status == 1)
        #expect(refused.standardError.contains("Employee \"e\", key 'salary': Integer 32 takes an integer, not a string"), "\(refused.standardError)")
        #expect(try schema.tableCount() == 0)
        let dryRun = try CommandRunner.run(["import", Self.model, schema.url, bad.path, "--dry-run"])
        #expect(dryRun.status == 1)
        #expect(try schema.tableCount() == 0)
    }

    // MARK: Refusals

    @Test func readingCommandsRefuseAnEmptySchemaAndCreateNothing() throws {
        let schema = try PostgresTestSchema()
        let shown = try PostgresURL(schema.url).description
        for arguments in [
            ["query", Self.model, schema.url, "--entity", "Employee"], ["query", schema.url, "--entity", "Employee"],
            ["export", Self.model, schema.url], ["export", schema.url], ["inspect", schema.url],
        ] {
            let output = try CommandRunner.run(arguments)
            #expect(output.status == 1, "\(arguments)")
            #expect(
                output.standardError == "cdqi: error: \(shown): no such store (query and export never create one; import does)\n",
                "\(arguments)")
            expectNoPassword(output)
        }
        #expect(try schema.tableCount() == 0)
    }

    @Test func aMalformedURLIsRefusedNamingThePart() throws {
        let output = try CommandRunner.run(["query", Self.model, "postgres://u:secret-word@localhost:notaport/db", "--entity", "Employee"])
        #expect(output.status == 1)
        #expect(output.standardError.hasPrefix("cdqi: error: invalid PostgreSQL URL: the port: "), "\(output.standardError)")
        #expect(!output.standardError.contains("secret-word"))
        let unknown = try CommandRunner.run(["export", Self.model, "postgres://u@localhost/db?schema=x&color=blue"])
        #expect(unknown.status == 1)
        #expect(unknown.standardError.hasPrefix("cdqi: error: invalid PostgreSQL URL: the parameter 'color': "), "\(unknown.standardError)")
    }

    @Test func checkAndMigrateRefuseAURLWithoutShowingItsPassword() throws {
        let url = "postgres://someone:secret-word@127.0.0.1:1/db?schema=s"
        let check = try CommandRunner.run(["check", url])
        #expect(check.status == 1)
        #expect(
            check.standardError
                == "cdqi: error: postgres://someone:***@127.0.0.1:1/db?schema=s: cdqi check takes a SQLite store file, not a PostgreSQL store\n")
        let migrate = try CommandRunner.run(["migrate", Self.model, url, "--dry-run"])
        #expect(migrate.status == 1)
        #expect(
            migrate.standardError
                == "cdqi: error: postgres://someone:***@127.0.0.1:1/db?schema=s: cdqi migrate takes a SQLite store file, not a PostgreSQL store\n")
    }

    @Test func anUnreachableServerIsRefusedWithinTheConnectTimeout() throws {
        // Port 1 on loopback: nothing listens there, so the connection is refused.
        let url = "postgres://someone:secret-word@127.0.0.1:1/db?schema=s&connect_timeout=3"
        let start = Date()
        for arguments in [["query", Self.model, url, "--entity", "Employee"], ["inspect", url], ["export", url]] {
            let output = try CommandRunner.run(arguments)
            #expect(output.status == 1, "\(arguments)")
            #expect(output.standardError.hasPrefix("cdqi: error: postgres://someone:***@127.0.0.1:1/db?schema=s"), "\(output.standardError)")
            #expect(!output.standardError.contains("secret-word"))
            #expect(!output.crashed)
        }
        let document = try TemporaryFolder()
        let file = document.url.appendingPathComponent("d.json")
        try Data(#"{"Department": [{"_id": "d", "name": "D"}]}"#.utf8).write(to: file)
        let imported = try CommandRunner.run(["import", Self.model, url, file.path])
        #expect(imported.status == 1)
        #expect(imported.standardError.contains("postgres://someone:***@127.0.0.1:1/db?schema=s"), "\(imported.standardError)")
        #expect(!imported.standardError.contains("secret-word"))
        // Four commands, each refused at once or after at most the 3-second timeout.
        #expect(Date().timeIntervalSince(start) < 4 * 3 + 20)
    }

    @Test func aSchemaOfAnotherModelIsRefused() throws {
        let folder = try TemporaryFolder()
        let schema = try seededSchema(in: folder)
        let developers = CommandRunner.packageRoot.appendingPathComponent("Fixtures/Developers.xcdatamodeld").path
        let query = try CommandRunner.run(["query", developers, schema.url, "--entity", "Developer"])
        #expect(query.status == 1)
        #expect(query.standardError.contains("the store was written for a different model"), "\(query.standardError)")
        let file = folder.url.appendingPathComponent("dev.json")
        try Data(#"{"Language": [{"_id": "l", "name": "Swift"}]}"#.utf8).write(to: file)
        let imported = try CommandRunner.run(["import", developers, schema.url, file.path])
        #expect(imported.status == 1)
        #expect(imported.standardError.contains("the store was written for a different model"), "\(imported.standardError)")
        let count = try CommandRunner.run(["query", Self.model, schema.url, "--entity", "Employee", "--count"])
        #expect(count.standardOutput == "2\n")
        for output in [query, imported] { expectNoPassword(output) }
    }
}
