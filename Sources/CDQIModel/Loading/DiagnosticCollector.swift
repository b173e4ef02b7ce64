/// Collects the problems found while reading one file, so that all of them are reported at once.
struct DiagnosticCollector {
    let file: String
    private(set) var diagnostics: [ModelDiagnostic] = []

    init(file: String) {
        self.file = file
    }

    var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }
    var errors: [ModelDiagnostic] { diagnostics.filter { $0.severity == .error } }
    var warnings: [ModelDiagnostic] { diagnostics.filter { $0.severity == .warning } }

    func location(_ line: Int) -> SourceLocation { SourceLocation(file: file, line: line) }

    mutating func error(_ message: String, line: Int) {
        diagnostics.append(ModelDiagnostic(.error, message, at: location(line)))
    }

    mutating func warning(_ message: String, line: Int) {
        diagnostics.append(ModelDiagnostic(.warning, message, at: location(line)))
    }
}
