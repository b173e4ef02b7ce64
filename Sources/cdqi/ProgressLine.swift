import Foundation

/// A progress line for long imports and exports ("exported 120000 objects…"), rewritten in place on
/// standard error when it is a terminal, at most a few times a second; nothing at all otherwise, so
/// scripts and logs see only the result.
final class ProgressLine {
    private let verb: String
    private let noun: String
    private let isTerminal = isatty(STDERR_FILENO) == 1
    private var lastShown = Date.distantPast
    private var shown = false

    init(verb: String, noun: String) {
        self.verb = verb
        self.noun = noun
    }

    /// Shows `count` if the last update was a while ago.
    func update(_ count: Int) {
        guard isTerminal, Date().timeIntervalSince(lastShown) >= 0.2 else { return }
        lastShown = Date()
        shown = true
        FileHandle.standardError.write(Data("\r\(verb) \(count) \(noun)\(count == 1 ? "" : "s")…".utf8))
    }

    /// Clears the line, if one was shown.
    func finish() {
        guard shown else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
        shown = false
    }
}
