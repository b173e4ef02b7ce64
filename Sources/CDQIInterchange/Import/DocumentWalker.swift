/// What a ``DocumentWalker`` hands over as it reads an import document.
protocol DocumentVisitor {
    /// The document is not an object but `kind` (`"an array"`); nothing else is handed over.
    mutating func documentIsNot(_ kind: String) throws

    /// An entity's list begins at document offset `offset`; returns whether to read its elements (else
    /// the list is only checked).
    mutating func beginList(entity: String, at offset: Int) throws -> Bool

    /// The entity's list is not an array but `kind`.
    mutating func listIsNot(_ kind: String, entity: String) throws

    /// The element at `position` (from 1) of the entity's list: its members when it is an object, else
    /// `nil` and its kind.
    mutating func element(_ members: [(key: String, value: JSONValue)]?, kind: String, position: Int, entity: String) throws
}

/// Walks an import document, `{"Entity": [{…}, …], …}`, reading one object at a time from its source:
/// the document is never held whole, only the object being handed over.
///
/// Syntax errors throw ``JSONParseError`` (with the line and column ``JSONParser`` gives), wherever in
/// the document they are; the visitor's own errors pass through.
enum DocumentWalker {
    static func walk<Visitor: DocumentVisitor>(_ source: DocumentSource, visitor: inout Visitor) throws {
        var reader = JSONStreamReader(source: source)
        reader.start()
        guard reader.peekByte() == UInt8(ascii: "{") else {
            let kind = try reader.skipValue()
            try reader.finish()
            try visitor.documentIsNot(kind)
            return
        }
        if try reader.enterObject() {
            var entities: Set<String> = []
            repeat {
                let entity = try reader.readKey(into: &entities)
                guard try visitor.beginList(entity: entity, at: reader.offset) else {
                    _ = try reader.skipValue()
                    continue
                }
                guard reader.peekByte() == UInt8(ascii: "[") else {
                    let kind = try reader.skipValue()
                    try visitor.listIsNot(kind, entity: entity)
                    continue
                }
                try elements(of: &reader, entity: entity, visitor: &visitor)
            } while try reader.nextMember()
        }
        try reader.finish()
    }

    /// Walks only the list of `entity` that begins at document offset `offset` (as ``walk(_:visitor:)``
    /// told it), for reading lists in another order than the document's.
    static func walkList<Visitor: DocumentVisitor>(_ source: DocumentSource, at offset: Int, entity: String, visitor: inout Visitor) throws {
        var reader = JSONStreamReader(source: source, startingAt: offset)
        guard reader.peekByte() == UInt8(ascii: "[") else { throw JSONParseError(message: "expected an array", line: 0, column: 0) }
        try elements(of: &reader, entity: entity, visitor: &visitor)
    }

    private static func elements<Visitor: DocumentVisitor>(of reader: inout JSONStreamReader, entity: String, visitor: inout Visitor) throws {
        guard try reader.enterArray() else { return }
        var position = 0
        repeat {
            position += 1
            if reader.peekByte() == UInt8(ascii: "{"), case .object(let members) = try reader.parseValue() {
                try visitor.element(members, kind: "an object", position: position, entity: entity)
            } else {
                let kind = try reader.skipValue()
                try visitor.element(nil, kind: kind, position: position, entity: entity)
            }
        } while try reader.nextElement()
    }
}
