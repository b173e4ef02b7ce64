/// Where a model element was declared: the `contents` file and the line of its XML element.
///
/// Diagnostics print it compiler-style, as `path:line`.
public struct SourceLocation: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The path of the file the element was read from.
    public var file: String
    /// The 1-based line of the element's start tag, or 0 when unknown.
    public var line: Int

    /// Creates a location.
    public init(file: String, line: Int) {
        self.file = file
        self.line = line
    }

    /// `path:line`, or just `path` when the line is unknown.
    public var description: String { line > 0 ? "\(file):\(line)" : file }
}
