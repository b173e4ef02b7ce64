import Foundation

/// Writes diagnostics and notes to standard error, one per line.
enum StandardError {
    static func print(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
