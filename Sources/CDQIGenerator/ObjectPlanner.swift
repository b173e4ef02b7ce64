import CDQIModel

/// Decides which entities get generated classes, their superclasses and typed properties, and the
/// name of the embedded model's type, with a warning for everything it renames or leaves out.
///
/// Classes follow the model's inheritance: the class of a sub-entity subclasses the class of its
/// nearest ancestor that has one, so a fetch of the parent entity returns objects typed by the parent
/// class. Only such root classes conform to `Entity` (the proxy planner drops the sub-entities'
/// conformances, which would be redundant); a generated class names its entity with
/// `class var cdqiEntityName`, overridden by generated subclasses.
struct ObjectPlanner {
    let model: ManagedObjectModel
    let options: GeneratorOptions
    /// The planned entities (first of each name), in model order.
    let entities: [EntityDescription]
    /// Each entity's parent, after dropping missing parents and cycles.
    let parentOf: [String: String]
    /// The entity that owns each usable class name: entity name → class name.
    let owners: [String: String]
    /// Type names already taken by proxies.
    let takenTypeNames: Set<String>

    private(set) var diagnostics: [String: [ModelDiagnostic]] = [:]
    private var layoutCache: [String: LayoutOrder] = [:]

    init(
        model: ManagedObjectModel, options: GeneratorOptions, entities: [EntityDescription], parentOf: [String: String],
        owners: [String: String], takenTypeNames: Set<String>
    ) {
        self.model = model
        self.options = options
        self.entities = entities
        self.parentOf = parentOf
        self.owners = owners
        self.takenTypeNames = takenTypeNames
    }

    /// Modules generated code refers to by name: a class named like one would break qualified names.
    static let moduleNames: Set<String> = ["Swift", "Foundation", "CDQIStore", "CDQIModel", "CDQIPredicate", RuntimeNames.module]

    /// Members of `ManagedObject` (and of Swift objects) that a generated property cannot be named
    /// after: such properties get the suffix `Value`. A test checks the list against the runtime.
    static let reservedMemberNames: Set<String> = [
        "entity", "objectID", "managedObjectContext", "isFault", "isInserted", "isDeleted", "isUpdated", "hasChanges",
        "changedValues", "committedValues", "description", "hashValue", "predicateObjectID", "awakeFromInsert",
        "awakeFromFetch", "willSave", "didSave", "self", "Self", "super", "Type", "Protocol", "init", "deinit",
        "subscript", "_", "rowVersion",
    ]

    struct Plan {
        var classes: [EntityClass]
        var modelTypeName: String?
        /// Entities whose class inherits its `Entity` conformance from an ancestor's class.
        var inheritingConformance: Set<String>
        /// Entities whose generated class declares `cdqiEntityName` itself.
        var declaringEntityName: Set<String>
    }

    mutating func plan(modelName: String) -> Plan {
        // Which entities have a class the generated model registers, and in what form.
        var forms: [String: EntityClass.Form] = [:]
        for entity in entities {
            let wanted: EntityClass.Form?
            switch (options.objectClasses, entity.codeGenerationType) {
            case (.all, _), (.asModelSays, .class?): wanted = .fullClass
            case (.asModelSays, .category?): wanted = .category
            case (.asModelSays, nil): wanted = nil
            }
            guard let form = wanted else { continue }
            guard let className = owners[entity.name] else {
                if entity.className == nil {
                    warn(
                        entity,
                        "entity '\(entity.name)' has no class name (representedClassName is absent, empty or "
                            + "NSManagedObject), so no class is generated for it; its objects are of its nearest ancestor's "
                            + "class, or plain ManagedObjects. Set the entity's class in the model to get one")
                }
                // Otherwise the proxy planner already said why the class is unusable or shared.
                continue
            }
            if Self.moduleNames.contains(className) {
                warn(
                    entity,
                    "class name '\(className)' of entity '\(entity.name)' is the name of a module generated "
                        + "code uses, so no class is generated for it; rename the class in the model")
                continue
            }
            forms[entity.name] = form
        }
        // The model is always written: on Linux a store cannot be opened without it (a bundle is no resource).
        guard !forms.isEmpty else {
            return Plan(classes: [], modelTypeName: modelTypeName(modelName), inheritingConformance: [], declaringEntityName: [])
        }

        var children: [String: [String]] = [:]
        for entity in entities { if let parent = parentOf[entity.name] { children[parent, default: []].append(entity.name) } }
        func classAncestor(of name: String) -> String? {
            var next = parentOf[name]
            var steps = 0
            while let current = next, steps <= entities.count {
                if forms[current] != nil { return current }
                next = parentOf[current]
                steps += 1
            }
            return nil
        }
        /// The class objects of an entity are made of, as registered: its own, or its nearest ancestor's.
        func objectClass(of name: String) -> String? {
            if forms[name] != nil { return owners[name] }
            return classAncestor(of: name).flatMap { owners[$0] }
        }
        func descendants(of name: String) -> [String] {
            var result: [String] = []
            var pending = children[name] ?? []
            while let next = pending.popLast(), result.count <= entities.count {
                result.append(next)
                pending += children[next] ?? []
            }
            return result
        }

        var swiftNames: [String: Set<String>] = [:]  // entity → Swift property names its class has (inherited too)
        var classes: [EntityClass] = []
        var inheriting: Set<String> = []
        var declaring: Set<String> = []
        let byName = Dictionary(entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let order = Dictionary(uniqueKeysWithValues: entities.enumerated().map { ($1.name, $0) })
        // Parents before children, so inherited Swift names are known.
        let planned = entities.filter { forms[$0.name] != nil }.sorted {
            (depth(of: $0.name), order[$0.name] ?? 0) < (depth(of: $1.name), order[$1.name] ?? 0)
        }
        var isSuperclass: Set<String> = []
        // Entities whose class and every ancestor's class are generated whole: they add no stored
        // property, initializer or deinit to ManagedObject, so a fetch cursor may reuse their objects.
        var reusable: Set<String> = []
        for entity in planned { if let ancestor = classAncestor(of: entity.name) { isSuperclass.insert(ancestor) } }

        for entity in planned {
            guard let form = forms[entity.name], let className = owners[entity.name] else { continue }
            let ancestor = classAncestor(of: entity.name)
            if ancestor != nil { inheriting.insert(entity.name) }
            var declaration = EntityClass.EntityNameDeclaration.none
            if form == .fullClass {
                if ancestor == nil {
                    declaration = .declared
                } else if let ancestor, forms[ancestor] == .fullClass {
                    declaration = .overridden
                }
            }
            if declaration != .none { declaring.insert(entity.name) }
            let reusesObjects = form == .fullClass && (ancestor.map { reusable.contains($0) } ?? true)
            if reusesObjects { reusable.insert(entity.name) }

            // The entities whose declared properties this class carries: itself, then ancestors up to the
            // one with a class; written root-most first.
            var declarers = [entity]
            var next = parentOf[entity.name]
            while let name = next, name != ancestor, let parent = byName[name], declarers.count <= entities.count {
                declarers.insert(parent, at: 0)
                next = parentOf[name]
            }
            let layout = layoutOrder(entity)
            let users = [entity.name] + descendants(of: entity.name)
            var names = ancestor.flatMap { swiftNames[$0] } ?? []
            var properties: [ObjectProperty] = []

            for declarer in declarers {
                for attribute in declarer.attributes {
                    let location = attribute.location ?? declarer.location
                    guard let index = layout.attributes[attribute.name],
                        stable(attribute.name, index: index, isAttribute: true, users: users, entity: entity, location: location),
                        let type = objectType(attribute, entity: entity, location: location),
                        let name = admit(attribute.name, names: &names, entity: entity, location: location)
                    else { continue }
                    let optional = attribute.isOptional || type.zeroLiteral == nil
                    properties.append(
                        ObjectProperty(
                            name: name, key: attribute.name, index: index,
                            kind: .attribute(type, isOptional: optional)))
                }
                for relationship in declarer.relationships {
                    let location = relationship.location ?? declarer.location
                    guard let index = layout.relationships[relationship.name],
                        stable(relationship.name, index: index, isAttribute: false, users: users, entity: entity, location: location)
                    else { continue }
                    guard byName[relationship.destinationEntityName] != nil else {
                        warn(
                            entity,
                            "relationship '\(relationship.name)' of entity '\(declarer.name)' leads to entity "
                                + "'\(relationship.destinationEntityName)', which is not in the model; class '\(className)' gets "
                                + "no property for it. Fix the destination in the model", at: location)
                        continue
                    }
                    guard let name = admit(relationship.name, names: &names, entity: entity, location: location) else { continue }
                    let destination = objectClass(of: relationship.destinationEntityName)
                    let kind: ObjectProperty.Kind =
                        relationship.isToMany
                        ? .toMany(className: destination, isOrdered: relationship.isOrdered)
                        : .toOne(className: destination)
                    properties.append(ObjectProperty(name: name, key: relationship.name, index: index, kind: kind))
                }
            }
            swiftNames[entity.name] = names
            classes.append(
                EntityClass(
                    entityName: entity.name, className: className, form: form,
                    superclassName: ancestor.flatMap { owners[$0] }, isFinal: !isSuperclass.contains(entity.name),
                    entityNameDeclaration: declaration, reusesObjects: reusesObjects, properties: properties))
        }
        // Model order in the output.
        classes.sort { (order[$0.entityName] ?? 0) < (order[$1.entityName] ?? 0) }
        return Plan(
            classes: classes, modelTypeName: modelTypeName(modelName),
            inheritingConformance: inheriting, declaringEntityName: declaring)
    }

    private mutating func warn(_ entity: EntityDescription, _ message: String, at location: SourceLocation? = nil) {
        diagnostics[entity.name, default: []].append(ModelDiagnostic(.warning, message, at: location ?? entity.location))
    }

    private func depth(of name: String) -> Int {
        var depth = 0
        var next = parentOf[name]
        while let parent = next, depth <= entities.count {
            depth += 1
            next = parentOf[parent]
        }
        return depth
    }

    private mutating func layoutOrder(_ entity: EntityDescription) -> LayoutOrder {
        if let cached = layoutCache[entity.name] { return cached }
        let layout = LayoutOrder(model: model, entity: entity)
        layoutCache[entity.name] = layout
        return layout
    }

    /// Whether the property sits at the same position in the layout of every entity whose objects can
    /// be of this class (the entity and its descendants); a sub-entity that declares a property of the
    /// same name shifts the positions, and then the class cannot have a fixed accessor for it.
    private mutating func stable(
        _ key: String, index: Int, isAttribute: Bool, users: [String], entity: EntityDescription,
        location: SourceLocation?
    ) -> Bool {
        for user in users {
            guard let description = model.entity(named: user) else { continue }
            let layout = layoutOrder(description)
            let position = isAttribute ? layout.attributes[key] : layout.relationships[key]
            if position != index {
                warn(
                    entity,
                    "property '\(key)' of entity '\(entity.name)' is laid out differently in sub-entity '\(user)' "
                        + "(which declares a property of the same name), so the class gets no typed property for it; use "
                        + "value(forKey:), or rename one of them in the model", at: location)
                return false
            }
        }
        return true
    }

    private mutating func objectType(
        _ attribute: AttributeDescription, entity: EntityDescription,
        location: SourceLocation?
    ) -> ObjectAttributeType? {
        switch attribute.type {
        case .string: return .string
        case .integer16: return .int16
        case .integer32: return .int32
        case .integer64: return .int64
        case .double: return .double
        case .float: return .float
        case .decimal: return .decimal
        case .boolean: return .bool
        case .date: return .date
        case .binaryData, .transformable: return .data
        case .uuid: return .uuid
        case .uri: return .url
        case .undefined, .objectID, .composite:
            warn(
                entity,
                "attribute '\(attribute.name)' of entity '\(entity.name)' has type \(attribute.type.rawValue), "
                    + "which has no Swift value type in the store, so its class gets no property for it; use value(forKey:) "
                    + "and setValue(_:forKey:)", at: location)
            return nil
        }
    }

    /// The Swift name of a property, or `nil` (with a warning) when it cannot have one.
    private mutating func admit(
        _ key: String, names: inout Set<String>, entity: EntityDescription,
        location: SourceLocation?
    ) -> String? {
        if key.hasPrefix("cdqi") {
            warn(
                entity,
                "property '\(key)' of entity '\(entity.name)' starts with 'cdqi', which the runtime reserves for "
                    + "its own members; its class gets no property for it. Rename it in the model", at: location)
            return nil
        }
        var name = key
        if !SwiftIdentifier.isValid(name) {
            name = SwiftIdentifier.sanitized(key)
            warn(
                entity,
                "property name '\(key)' of entity '\(entity.name)' is not a valid Swift identifier; its class "
                    + "property is named '\(name)'", at: location)
        }
        if Self.reservedMemberNames.contains(name) {
            let renamed = name + "Value"
            warn(
                entity,
                "property '\(key)' of entity '\(entity.name)' has the name of a member of ManagedObject; its class "
                    + "property is named '\(renamed)'. Rename it in the model to choose the name", at: location)
            name = renamed
        }
        guard names.insert(name).inserted else {
            warn(
                entity,
                "property '\(key)' of entity '\(entity.name)' would be named '\(name)' like another property of "
                    + "its class; the class gets no property for it. Rename it in the model", at: location)
            return nil
        }
        return name
    }

    /// `<Model>Model` (`Company` → `CompanyModel`; a name that already ends in `Model` is kept:
    /// `Model` → `Model`, not `ModelModel`), or another free name when a class or proxy takes it.
    private func modelTypeName(_ modelName: String) -> String {
        let sanitized = SwiftIdentifier.sanitized(modelName)
        let base = sanitized.hasSuffix("Model") ? sanitized : sanitized + "Model"
        let classNames = Set(entities.compactMap(\.className))
        let taken = classNames.union(takenTypeNames).union(RuntimeNames.types).union(RuntimeNames.objectTypes)
            .union(Self.moduleNames).union(SwiftIdentifier.keywords)
        let candidates =
            [base, SwiftIdentifier.sanitized(modelName) + "ManagedObjectModel"]
            + (2...(entities.count + 3)).map { "\(base)\($0)" }
        return candidates.first { !taken.contains($0) } ?? base + "_"
    }
}
