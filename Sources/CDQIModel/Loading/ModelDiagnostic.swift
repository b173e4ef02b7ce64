/// One problem found in a model file, located compiler-style.
public struct ModelDiagnostic: Sendable, Hashable, CustomStringConvertible {
    /// How serious the problem is.
    public enum Severity: String, Sendable, Hashable {
        /// The model cannot be used.
        case error
        /// The model loads, but something was guessed or ignored.
        case warning
    }

    /// How serious the problem is.
    public var severity: Severity
    /// What is wrong, and where possible what to do about it.
    public var message: String
    /// The file and line, when known.
    public var location: SourceLocation?

    /// Creates a diagnostic.
    public init(_ severity: Severity, _ message: String, at location: SourceLocation?) {
        self.severity = severity
        self.message = message
        self.location = location
    }

    /// `path:line: error: message`, as compilers print it.
    public var description: String {
        let prefix = location.map { "\($0): " } ?? ""
        return "\(prefix)\(severity.rawValue): \(message)"
    }
}
