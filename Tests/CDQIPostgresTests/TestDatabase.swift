import CDQIPostgres
import Foundation

/// The PostgreSQL server the tests that need one use: `CDQI_POSTGRES_URL` (`bin/postgres-cluster
/// start` prints one; `.ci/run` sets it). Tests that need it are enabled only when it is set.
enum TestDatabase {
    /// The server's URL, when one is given.
    static let urlString: String? = ProcessInfo.processInfo.environment["CDQI_POSTGRES_URL"]

    /// Whether a server is given.
    static var isAvailable: Bool { urlString != nil }

    /// The server's URL, parsed, with `schema` in place of the URL's.
    static func url(schema: String = "public") throws -> PostgresURL {
        var url = try PostgresURL(urlString ?? "")
        url.schema = schema
        return url
    }

    /// Runs `body` with a connection whose `search_path` is a new schema of its own (a unique name),
    /// and drops the schema afterwards, so that tests running at once never see each other's tables.
    static func withScratchSchema(_ body: (PostgresConnection, String) throws -> Void) throws {
        let schema = "cdqi_test_" + UUID().uuidString.prefix(8).lowercased()
        let connection = try PostgresConnection(url: url(schema: schema))
        try connection.execute("CREATE SCHEMA " + PostgresConnection.quoteIdentifier(schema))
        defer { try? connection.execute("DROP SCHEMA " + PostgresConnection.quoteIdentifier(schema) + " CASCADE") }
        try body(connection, schema)
    }
}
