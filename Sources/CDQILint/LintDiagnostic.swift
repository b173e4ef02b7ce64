/// A problem `cdqi lint` found in a query string, printed as compilers print theirs.
public struct LintDiagnostic: Sendable, Hashable, CustomStringConvertible {
    /// How serious it is.
    public enum Severity: String, Sendable, Hashable {
        /// The query fails when it runs (a syntax error, an unknown key, a to-many key where one value is needed).
        case error
        /// The query runs, but probably not as meant (a comparison whose kinds differ is always false).
        case warning
    }

    /// The Swift file, and the 1-based line and column of the problem in it.
    public var file: String
    public var line: Int
    public var column: Int
    public var severity: Severity
    public var message: String

    /// Creates a diagnostic.
    public init(file: String, line: Int, column: Int, severity: Severity, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.severity = severity
        self.message = message
    }

    /// `file:line:column: error: message`.
    public var description: String { "\(file):\(line):\(column): \(severity.rawValue): \(message)" }
}
