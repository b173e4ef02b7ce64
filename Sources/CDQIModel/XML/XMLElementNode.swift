/// An XML element read from a model file: its name, attributes, child elements and line.
///
/// Model files keep all their data in attributes; `text` (the element's own character data) matters
/// only for property lists such as `.xccurrentversion`.
struct XMLElementNode: Sendable {
    var name: String
    var attributes: [(name: String, value: String)]
    var children: [XMLElementNode]
    var text: String
    var line: Int

    func attribute(_ name: String) -> String? {
        attributes.first(where: { $0.name == name })?.value
    }

    func children(named name: String) -> [XMLElementNode] {
        children.filter { $0.name == name }
    }
}
