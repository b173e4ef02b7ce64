/// Renders planned entity classes as Swift source: typed properties over the runtime's slot accessors
/// (`cdqiString(at:)`, `cdqiSetToOne(_:at:)`, …), addressed by the positions the runtime's layout gives
/// them, so that no access looks anything up by name.
struct ObjectSourceWriter {
    let options: GeneratorOptions
    let qualify: NameQualifier

    private var indent: String { String(repeating: " ", count: max(options.indentWidth, 0)) }
    private var access: String { options.accessLevel.declarationPrefix }

    /// The imports a file with entity classes or an embedded model needs.
    static let imports = ["CDQIModel", "CDQIStore", "Foundation"]

    /// The class, or for a category the extension, with its properties.
    func declaration(_ entityClass: EntityClass) -> String {
        let name = SwiftIdentifier.escaped(entityClass.className)
        var members: [String] = []
        let opening: String
        switch entityClass.form {
        case .fullClass:
            let superclass = entityClass.superclassName.map(SwiftIdentifier.escaped) ?? qualify("ManagedObject")
            opening =
                "/// The objects of entity \(commentSafe(entityClass.entityName)) (generated: do not edit).\n"
                + "\(access)nonisolated \(entityClass.isFinal ? "final " : "")class \(name): \(superclass) {"
            let string = qualify("String")
            let literal = SwiftSourceWriter.stringLiteral(entityClass.entityName)
            // The class-level declarations, one block.
            var header: [String] = []
            switch entityClass.entityNameDeclaration {
            case .declared:
                header.append("\(indent)\(access)class var cdqiEntityName: \(string) { \(literal) }")
            case .overridden:
                header.append("\(indent)\(access)override class var cdqiEntityName: \(string) { \(literal) }")
            case .none:
                break
            }
            if entityClass.reusesObjects {
                let type = qualify("ManagedObject")
                header.append("\(indent)\(access)override class var cdqiReusableClass: \(type).Type { \(name).self }")
            }
            if !header.isEmpty { members.append(header.joined(separator: "\n")) }
        case .category:
            opening =
                "/// The properties of entity \(commentSafe(entityClass.entityName)) (generated: do not edit; the class "
                + "is written by hand and must subclass ManagedObject).\nnonisolated extension \(name) {"
        }
        members += entityClass.properties.map(property)
        guard !members.isEmpty else { return opening + "}" }
        return ([opening] + [members.joined(separator: "\n\n")] + ["}"]).joined(separator: "\n")
    }

    private func property(_ property: ObjectProperty) -> String {
        let name = SwiftIdentifier.escaped(property.name)
        let index = property.index
        let i2 = indent + indent
        switch property.kind {
        case .attribute(let type, let isOptional):
            let swiftType = qualify(type.swiftName)
            // `Data()` rather than `[]`: an array literal after `??` would be inferred as `[Any]`.
            let zero = type == .data ? "\(qualify("Data"))()" : (type.zeroLiteral ?? "")
            let getter =
                isOptional || type.zeroLiteral == nil
                ? "cdqi\(type.swiftName)(at: \(index))"
                : "cdqi\(type.swiftName)(at: \(index)) ?? \(zero)"
            return [
                "\(indent)\(access)var \(name): \(swiftType)\(isOptional ? "?" : "") {",
                "\(i2)get { \(getter) }",
                "\(i2)set { cdqiSet\(type.swiftName)(newValue, at: \(index)) }",
                "\(indent)}",
            ].joined(separator: "\n")
        case .toOne(let className):
            let type = className.map(SwiftIdentifier.escaped) ?? qualify("ManagedObject")
            let getter = className == nil ? "cdqiToOne(at: \(index))" : "cdqiToOne(at: \(index)) as? \(type)"
            return [
                "\(indent)\(access)var \(name): \(type)? {",
                "\(i2)get { \(getter) }",
                "\(i2)set { cdqiSetToOne(newValue, at: \(index)) }",
                "\(indent)}",
            ].joined(separator: "\n")
        case .toMany(let className, let isOrdered):
            let element = className.map(SwiftIdentifier.escaped) ?? qualify("ManagedObject")
            let members =
                className == nil
                ? "cdqiToMany(at: \(index))" : "cdqiToMany(at: \(index)).compactMap { $0 as? \(element) }"
            let collection = isOrdered ? "[\(element)]" : "\(qualify("Set"))<\(element)>"
            let getter = isOrdered ? members : "\(qualify("Set"))(\(members))"
            let setter = isOrdered ? "cdqiSetToMany(newValue, at: \(index))" : "cdqiSetToMany(\(qualify("Array"))(newValue), at: \(index))"
            let capitalized = property.name.prefix(1).uppercased() + property.name.dropFirst()
            var lines = [
                "\(indent)\(access)var \(name): \(collection) {",
                "\(i2)get { \(getter) }",
                "\(i2)set { \(setter) }",
                "\(indent)}",
                "",
                "\(indent)\(access)func addTo\(capitalized)(_ value: \(element)) { cdqiAdd(value, toManyAt: \(index)) }",
                "",
                "\(indent)\(access)func addTo\(capitalized)(_ values: \(collection)) {",
                "\(i2)for value in values { cdqiAdd(value, toManyAt: \(index)) }",
                "\(indent)}",
                "",
                "\(indent)\(access)func removeFrom\(capitalized)(_ value: \(element)) { cdqiRemove(value, fromManyAt: \(index)) }",
            ]
            if isOrdered {
                lines += [
                    "",
                    "\(indent)\(access)func insertInto\(capitalized)(_ value: \(element), at position: \(qualify("Int"))) {",
                    "\(i2)cdqiInsert(value, at: position, inManyAt: \(index))",
                    "\(indent)}",
                ]
            }
            return lines.joined(separator: "\n")
        }
    }

    private func commentSafe(_ text: String) -> String {
        String(text.map { $0.isNewline ? " " : $0 })
    }
}
