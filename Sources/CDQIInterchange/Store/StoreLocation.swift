import CDQIPostgres
import Foundation

/// Where the store commands find a store: a SQLite file, or a PostgreSQL schema named by a
/// `postgres://user:password@host:port/database?schema=name` URL (`postgresql://` too).
///
/// ```swift
/// let location = try StoreLocation("postgres://app@localhost/shop?schema=sales")
/// let table = try StoreQuery(entityName: "Employee").run(model: model, store: location)
/// ```
public enum StoreLocation: Sendable, Hashable, CustomStringConvertible {
    /// A SQLite store file.
    case file(URL)
    /// A store in a PostgreSQL schema.
    case postgres(PostgresURL)

    /// The location a command-line argument names: a PostgreSQL URL when it starts with `postgres://`
    /// or `postgresql://` (in any case), else a file path.
    ///
    /// - Throws: ``QueryError/store(_:)`` naming the part at fault when the URL does not parse (the
    ///   message never shows the password).
    public init(_ argument: String) throws(QueryError) {
        guard Self.isDatabaseURL(argument) else {
            self = .file(URL(fileURLWithPath: argument))
            return
        }
        do {
            self = .postgres(try PostgresURL(argument))
        } catch {
            throw .store(error.description)
        }
    }

    /// Whether `argument` is a PostgreSQL URL rather than a file path.
    public static func isDatabaseURL(_ argument: String) -> Bool {
        let lowered = argument.lowercased()
        return lowered.hasPrefix("postgres://") || lowered.hasPrefix("postgresql://")
    }

    /// The file's path, or the URL without its password.
    public var description: String {
        switch self {
        case .file(let url): url.path
        case .postgres(let url): url.description
        }
    }
}
