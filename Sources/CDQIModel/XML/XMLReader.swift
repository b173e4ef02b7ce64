import CLibXML2

/// Parses XML with libxml2 in its safe configuration and converts it to ``XMLElementNode`` values.
///
/// Hostile input stays harmless (reliability.md §3): the network is off, entities are never
/// substituted, no DTD is loaded, and a document with a DOCTYPE is refused unless the caller allows it
/// (property lists carry one; model files never do). Bytes are read by the caller and handed over in
/// memory, so libxml2 opens no file itself.
enum XMLReader {
    /// libxml2 must be initialised once before concurrent use.
    private static let initialised: Void = { xmlInitParser() }()

    private static let options = Int32(
        XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue
            | XML_PARSE_NOCDATA.rawValue)

    /// Deep documents are refused rather than walked; model files nest five levels at most.
    static let maximumDepth = 256

    /// Parses `bytes` (the content of `path`) and returns the root element.
    static func parse(_ bytes: [UInt8], path: String, allowDoctype: Bool) throws(ModelError) -> XMLElementNode {
        _ = initialised
        if bytes.isEmpty {
            throw .invalid([ModelDiagnostic(.error, "the file is empty", at: SourceLocation(file: path, line: 1))])
        }
        if !allowDoctype, let line = lineOfDoctype(in: bytes) {
            throw .invalid([
                ModelDiagnostic(
                    .error,
                    "the file declares a DOCTYPE; model files never have one, and entity declarations are not allowed",
                    at: SourceLocation(file: path, line: line))
            ])
        }
        guard let context = xmlNewParserCtxt() else {
            throw .unreadable(path: path, reason: "libxml2 could not allocate a parser")
        }
        defer { xmlFreeParserCtxt(context) }
        context.pointee.sax?.pointee.startElementNs = startElementRecordingLine
        // After the first error libxml2 keeps scanning and reports more, often at the end of the
        // input; the first one is the one that names the cause.
        let firstError = FirstErrorRecorder()
        context.pointee._private = Unmanaged.passUnretained(firstError).toOpaque()
        context.pointee.sax?.pointee.serror = recordFirstError
        guard bytes.count <= Int(Int32.max) else {
            throw .fileTooLarge(path: path, size: bytes.count, limit: Int(Int32.max))
        }
        // The recorder must outlive the parse: libxml2 holds only an unretained pointer to it.
        let document = withExtendedLifetime(firstError) {
            bytes.withUnsafeBufferPointer { buffer in
                buffer.baseAddress.flatMap { base in
                    base.withMemoryRebound(to: CChar.self, capacity: buffer.count) { chars in
                        xmlCtxtReadMemory(context, chars, Int32(buffer.count), path, nil, options)
                    }
                }
            }
        }
        context.pointee._private = nil
        guard let document else {
            if let first = firstError.error {
                throw .invalid([
                    ModelDiagnostic(
                        .error, "malformed XML: \(first.message)", at: SourceLocation(file: path, line: max(first.line, 1)))
                ])
            }
            throw .invalid([lastError(context: context, path: path)])
        }
        defer { xmlFreeDoc(document) }
        if !allowDoctype, document.pointee.intSubset != nil || document.pointee.extSubset != nil {
            throw .invalid([
                ModelDiagnostic(
                    .error, "the file declares a DOCTYPE; model files never have one", at: SourceLocation(file: path, line: 1))
            ])
        }
        guard let root = xmlDocGetRootElement(document) else {
            throw .invalid([ModelDiagnostic(.error, "the document has no root element", at: SourceLocation(file: path, line: 1))])
        }
        return try convert(root, path: path, depth: 0)
    }

    /// The line of a `<!DOCTYPE` in the prolog (before the root element's start tag), or `nil`.
    private static func lineOfDoctype(in bytes: [UInt8]) -> Int? {
        let marker = Array("<!DOCTYPE".utf8)
        var line = 1
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\n") {
                line += 1
            } else if byte == UInt8(ascii: "<"), index + 1 < bytes.count {
                let next = bytes[index + 1]
                if next != UInt8(ascii: "?") && next != UInt8(ascii: "!") { return nil }  // the root element
                if bytes[index...].starts(with: marker) { return line }
            }
            index += 1
        }
        return nil
    }

    private static func lastError(context: xmlParserCtxtPtr, path: String) -> ModelDiagnostic {
        guard let error = xmlCtxtGetLastError(context) else {
            return ModelDiagnostic(.error, "malformed XML", at: SourceLocation(file: path, line: 1))
        }
        let message = error.pointee.message.map { String(cString: $0) } ?? "malformed XML"
        return ModelDiagnostic(
            .error, "malformed XML: \(message.trimmingWhitespace)",
            at: SourceLocation(file: path, line: max(Int(error.pointee.line), 1)))
    }

    /// Keeps the first error libxml2 reports during one parse.
    private final class FirstErrorRecorder {
        var error: (line: Int, message: String)?
    }

    private static let recordFirstError: xmlStructuredErrorFunc = { userData, error in
        guard let userData, let error, error.pointee.level.rawValue >= XML_ERR_ERROR.rawValue,
            let recorder = userData.assumingMemoryBound(to: xmlParserCtxt.self).pointee._private
        else { return }
        let first = Unmanaged<FirstErrorRecorder>.fromOpaque(recorder).takeUnretainedValue()
        guard first.error == nil else { return }
        let message = error.pointee.message.map { String(cString: $0) } ?? "malformed XML"
        first.error = (Int(error.pointee.line), message.trimmingWhitespace)
    }

    /// libxml2 2.9 keeps element lines in 16 bits and, past 65,535, answers with a neighbouring text
    /// node's line. This SAX hook builds the element as usual, then records the parser's real line in
    /// the node's `psvi` field, which only schema validation (never used here) would otherwise touch.
    private static let startElementRecordingLine: startElementNsSAX2Func = {
        context, localName, prefix, uri, namespaceCount, namespaces, attributeCount, defaultedCount, attributes in
        xmlSAX2StartElementNs(
            context, localName, prefix, uri, namespaceCount, namespaces, attributeCount, defaultedCount, attributes)
        guard let parser = context?.assumingMemoryBound(to: xmlParserCtxt.self),
            let node = parser.pointee.node, let input = parser.pointee.input
        else { return }
        node.pointee.psvi = UnsafeMutableRawPointer(bitPattern: Int(input.pointee.line))
    }

    private static func line(of node: xmlNodePtr) -> Int {
        let recorded = Int(bitPattern: node.pointee.psvi)
        return recorded > 0 ? recorded : Int(xmlGetLineNo(node))
    }

    private static func convert(_ node: xmlNodePtr, path: String, depth: Int) throws(ModelError) -> XMLElementNode {
        let line = line(of: node)
        guard depth < maximumDepth else {
            throw .invalid([
                ModelDiagnostic(
                    .error, "elements nest deeper than \(maximumDepth) levels", at: SourceLocation(file: path, line: line))
            ])
        }
        var element = XMLElementNode(
            name: node.pointee.name.map { String(cString: $0) } ?? "", attributes: [], children: [], text: "",
            line: line)
        var attribute = node.pointee.properties
        while let current = attribute {
            let name = current.pointee.name.map { String(cString: $0) } ?? ""
            element.attributes.append((name, textContent(of: current.pointee.children)))
            attribute = current.pointee.next
        }
        var child = node.pointee.children
        var hasText = false
        while let current = child {
            if current.pointee.type == XML_ELEMENT_NODE {
                element.children.append(try convert(current, path: path, depth: depth + 1))
            } else if current.pointee.type == XML_TEXT_NODE {
                hasText = true
            }
            child = current.pointee.next
        }
        if hasText { element.text = textContent(of: node.pointee.children) }
        return element
    }

    /// The concatenated content of the text nodes in a sibling list (an attribute's value, or an
    /// element's character data). Entity references are never substituted.
    private static func textContent(of first: xmlNodePtr?) -> String {
        var bytes: [UInt8] = []
        var node = first
        while let current = node {
            if current.pointee.type == XML_TEXT_NODE, let content = current.pointee.content {
                var pointer = content
                while pointer.pointee != 0 {
                    bytes.append(pointer.pointee)
                    pointer += 1
                }
            }
            node = current.pointee.next
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
