import CDQIModel

/// Decides what to generate for a model: proxy names, inheritance, properties and conformances, with
/// a warning for everything it renames or leaves out.
struct ProxyPlanner {
    let model: ManagedObjectModel
    let options: GeneratorOptions

    /// The entities that are planned: the first of each name (later duplicates are reported).
    private var entities: [EntityDescription] = []
    /// The parent each entity's proxy subclasses, after dropping missing parents and cycles.
    private var parentOf: [String: String] = [:]
    /// The proxy name of each entity.
    private var proxyNameOf: [String: String] = [:]
    /// The model's composites (the first of each name) and their proxy names.
    private var composites: [CompositeDescription] = []
    private var compositeProxyOf: [String: String] = [:]
    private var entityDiagnostics: [String: [ModelDiagnostic]] = [:]
    private var leadingDiagnostics: [ModelDiagnostic] = []
    private var compositeDiagnostics: [ModelDiagnostic] = []

    init(model: ManagedObjectModel, options: GeneratorOptions) {
        self.model = model
        self.options = options
    }

    /// The proxies in model order, the runtime names that model classes shadow, and the warnings (all
    /// of them, and those about entity classes alone).
    mutating func plan(
        modelName: String
    ) -> (
        proxies: [EntityProxy], shadowedRuntimeNames: Set<String>, diagnostics: [ModelDiagnostic], objects: ObjectPlanner.Plan,
        classDiagnostics: [ModelDiagnostic]
    ) {
        collectEntities()
        resolveInheritance()
        nameProxies()
        nameComposites()
        typeNames = RuntimeNames.types.union(proxyNameOf.values).union(compositeProxyOf.values)
        let conformances = claimClasses()
        let properties = planProperties()
        let compositeProxies = planComposites()
        var objectPlanner = ObjectPlanner(
            model: model, options: options, entities: entities, parentOf: parentOf, owners: conformances,
            takenTypeNames: Set(proxyNameOf.values).union(compositeProxyOf.values))
        let objects = objectPlanner.plan(modelName: modelName)
        for (name, diagnostics) in objectPlanner.diagnostics { entityDiagnostics[name, default: []] += diagnostics }
        let undeclared = undeclaredManualClasses(conformances)
        let parents = Set(parentOf.values)
        let proxies = entities.map { entity in
            EntityProxy(
                entityName: entity.name,
                proxyName: proxyNameOf[entity.name] ?? entity.name + options.suffix,
                superclassName: parentOf[entity.name].flatMap { proxyNameOf[$0] },
                isFinal: !parents.contains(entity.name),
                properties: properties[entity.name] ?? [],
                // A class that subclasses another entity's generated class inherits its conformance.
                conformingClassName: objects.inheritingConformance.contains(entity.name) || undeclared.contains(entity.name)
                    ? nil : conformances[entity.name],
                classDeclaresEntityName: objects.declaringEntityName.contains(entity.name)
            )
        }
        let classNames = Set(entities.compactMap(\.className))
        let diagnostics = leadingDiagnostics + entities.flatMap { entityDiagnostics[$0.name] ?? [] } + compositeDiagnostics
        let classDiagnostics = entities.flatMap { objectPlanner.diagnostics[$0.name] ?? [] }
        return (
            proxies + compositeProxies, classNames.intersection(RuntimeNames.types.union(["String"])), diagnostics, objects,
            classDiagnostics
        )
    }

    /// The entities with Manual/None code generation whose class the target does not declare
    /// (``GeneratorOptions/declaredClassNames``), with one warning naming them and both ways out:
    /// generated code that made them conform to `Entity` would fail with "cannot find type".
    private mutating func undeclaredManualClasses(_ conformances: [String: String]) -> Set<String> {
        guard options.objectClasses == .asModelSays, let declared = options.declaredClassNames else { return [] }
        let manual = entities.filter { entity in
            entity.codeGenerationType == nil && conformances[entity.name].map { !declared.contains($0) } ?? false
        }
        guard let first = manual.first else { return [] }
        let classes = manual.compactMap { conformances[$0.name] }
        let listed = classes.prefix(5).map { "'\($0)'" }.joined(separator: ", ") + (classes.count > 5 ? ", …" : "")
        let example = classes[0]
        leadingDiagnostics.append(
            ModelDiagnostic(
                .warning,
                "\(manual.count == 1 ? "an entity" : "\(manual.count) entities") with Manual/None code generation "
                    + "\(manual.count == 1 ? "has" : "have") no class in this target (\(listed)), so \(manual.count == 1 ? "its proxy does" : "their proxies do") not "
                    + "conform to Entity and cannot start typed queries. Either write the class "
                    + "(`final class \(example): ManagedObject {}`, registered with `coordinator.register(\(example).self, "
                    + "forEntityName:)`), or have cdqi generate every class: `\"objects\": \"all\"` in cdqi.json beside the "
                    + "model (the build plugin), or `cdqi --objects`",
                at: first.location))
        return Set(manual.map(\.name))
    }

    private mutating func warn(_ entity: EntityDescription, _ message: String, at location: SourceLocation? = nil) {
        entityDiagnostics[entity.name, default: []].append(
            ModelDiagnostic(.warning, message, at: location ?? entity.location))
    }

    private mutating func collectEntities() {
        var seen: Set<String> = []
        for entity in model.entities {
            if seen.insert(entity.name).inserted {
                entities.append(entity)
            } else {
                leadingDiagnostics.append(
                    ModelDiagnostic(
                        .warning,
                        "entity '\(entity.name)' is declared more than once; only the first declaration gets a proxy. "
                            + "Rename or remove the duplicate in the model",
                        at: entity.location))
            }
        }
    }

    private mutating func resolveInheritance() {
        let names = Set(entities.map(\.name))
        for entity in entities {
            guard let parent = entity.parentEntityName, !parent.isEmpty else { continue }
            guard names.contains(parent) else {
                warn(
                    entity,
                    "entity '\(entity.name)' names parent entity '\(parent)', which is not in the model; "
                        + "its proxy is generated as a root proxy without inherited properties. Fix the parent in the model")
                continue
            }
            // Follow the chain: a cycle back to this entity makes inheritance impossible.
            var seen: Set<String> = [entity.name]
            var next: String? = parent
            var cyclic = false
            while let name = next, names.contains(name) {
                if !seen.insert(name).inserted {
                    cyclic = true
                    break
                }
                next = model.entity(named: name)?.parentEntityName
            }
            if cyclic {
                warn(
                    entity,
                    "entity '\(entity.name)' is part of an inheritance cycle; its proxy is generated as a "
                        + "root proxy without inherited properties. Break the cycle in the model")
            } else {
                parentOf[entity.name] = parent
            }
        }
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

    /// Names taken so far, lower-cased so file names differ on case-insensitive disks too.
    private var takenProxyNames: Set<String> = []
    /// The class names of the model's entities (made on first use).
    private var modelClassNames: Set<String>?
    /// The type names a property may not take: runtime types and every proxy (made once the proxies are named).
    private var typeNames: Set<String> = []

    /// The first free name among `<base><infix><suffix>`, `<base>Entity<suffix>`, `…2`, `…3`, …, and
    /// why the preferred one was not free (`nil` when it was).
    ///
    /// Each call costs about the same whatever the number of entities (the sets it reads are made once
    /// and updated in place), so naming a model is linear in its size.
    private mutating func chooseProxyName(base: String, infix: String) -> (name: String, reason: String?) {
        if modelClassNames == nil { modelClassNames = Set(entities.compactMap(\.className)) }
        let preferred = base + infix + options.suffix
        let fallback = base + (infix.isEmpty ? "Entity" : infix)
        var chosen: String?
        for candidate in infix.isEmpty ? [preferred, fallback + options.suffix] : [preferred]
        where proxyNameConflict(candidate) == nil {
            chosen = candidate
            break
        }
        var number = 2
        while chosen == nil, number <= entities.count + composites.count + 2 {
            let candidate = "\(fallback)\(options.suffix)\(number)"
            if proxyNameConflict(candidate) == nil { chosen = candidate }
            number += 1
        }
        let name = chosen ?? preferred
        takenProxyNames.insert(name.lowercased())
        return (name, name == preferred ? nil : proxyNameConflict(preferred))
    }

    /// Why `name` cannot be a proxy's name, or `nil` when it can.
    private func proxyNameConflict(_ name: String) -> String? {
        if RuntimeNames.types.contains(name) { return "'\(name)' is a type of \(RuntimeNames.module)" }
        if modelClassNames?.contains(name) == true { return "'\(name)' is the name of a class in the model" }
        if SwiftIdentifier.impossibleTypeNames.contains(name) || SwiftIdentifier.keywords.contains(name) {
            return "'\(name)' is a Swift keyword"
        }
        if takenProxyNames.contains(name.lowercased()) { return "'\(name)' is the proxy of another entity or composite" }
        return nil
    }

    private mutating func nameProxies() {
        for entity in entities {
            var base = entity.name
            if !SwiftIdentifier.isValid(base) {
                base = SwiftIdentifier.sanitized(base)
                warn(
                    entity,
                    "entity name '\(entity.name)' is not a valid Swift identifier; its proxy is named "
                        + "'\(base)\(options.suffix)'. Rename the entity in the model to choose the name")
            }
            let (chosen, reason) = chooseProxyName(base: base, infix: "")
            if let reason {
                warn(
                    entity,
                    "the proxy of entity '\(entity.name)' is named '\(chosen)' because \(reason); "
                        + "rename the entity or pick another --suffix to get a plain name")
            }
            proxyNameOf[entity.name] = chosen
        }
    }

    /// Composite proxies are named `<Composite>Composite<Suffix>`, apart from entity proxies.
    private mutating func nameComposites() {
        var seen: Set<String> = []
        for composite in model.composites where seen.insert(composite.name).inserted {
            composites.append(composite)
        }
        for composite in composites {
            var base = composite.name
            if !SwiftIdentifier.isValid(base) {
                base = SwiftIdentifier.sanitized(base)
                compositeDiagnostics.append(
                    ModelDiagnostic(
                        .warning,
                        "composite name '\(composite.name)' is not a valid Swift identifier; its proxy is named "
                            + "'\(base)Composite\(options.suffix)'. Rename the composite in the model to choose the name",
                        at: composite.location))
            }
            let (chosen, reason) = chooseProxyName(base: base, infix: "Composite")
            if let reason {
                compositeDiagnostics.append(
                    ModelDiagnostic(
                        .warning,
                        "the proxy of composite '\(composite.name)' is named '\(chosen)' because \(reason); rename the "
                            + "composite or pick another --suffix to get a plain name",
                        at: composite.location))
            }
            compositeProxyOf[composite.name] = chosen
        }
    }

    /// Which entity's class conforms to `Entity`: one per class name, the root-most claimant first.
    private mutating func claimClasses() -> [String: String] {
        var conformances: [String: String] = [:]
        var claimants: [String: [EntityDescription]] = [:]
        for entity in entities {
            let proxy = proxyNameOf[entity.name] ?? ""
            guard let className = entity.className else {
                warn(
                    entity,
                    "entity '\(entity.name)' has no class of its own (representedClassName is absent, empty "
                        + "or NSManagedObject), so '\(proxy)' is generated without an Entity conformance and can be used "
                        + "through relationships only; set the entity's class in the model to query it directly")
                continue
            }
            guard SwiftIdentifier.isValid(className), !SwiftIdentifier.impossibleTypeNames.contains(className) else {
                warn(
                    entity,
                    "class name '\(className)' of entity '\(entity.name)' is not a usable Swift class name, so "
                        + "'\(proxy)' is generated without an Entity conformance; fix the class name in the model")
                continue
            }
            claimants[className, default: []].append(entity)
        }
        let order = Dictionary(uniqueKeysWithValues: entities.enumerated().map { ($1.name, $0) })
        for (className, group) in claimants {
            let sorted = group.sorted {
                (depth(of: $0.name), order[$0.name] ?? 0) < (depth(of: $1.name), order[$1.name] ?? 0)
            }
            guard let owner = sorted.first else { continue }
            conformances[owner.name] = className
            for other in sorted.dropFirst() {
                warn(
                    other,
                    "entity '\(other.name)' uses class '\(className)', which entity '\(owner.name)' also uses; "
                        + "a class can conform to Entity only once, so '\(className)' queries '\(owner.name)' and "
                        + "'\(proxyNameOf[other.name] ?? "")' gets no conformance. Give '\(other.name)' a class of its own "
                        + "to query it directly")
            }
        }
        return conformances
    }

    private mutating func planProperties() -> [String: [ProxyProperty]] {
        var declared: [String: [String: String]] = [:]  // entity → property name → entity that declares it
        var result: [String: [ProxyProperty]] = [:]
        let order = Dictionary(uniqueKeysWithValues: entities.enumerated().map { ($1.name, $0) })
        let byDepth = entities.sorted {
            (depth(of: $0.name), order[$0.name] ?? 0) < (depth(of: $1.name), order[$1.name] ?? 0)
        }
        for entity in byDepth {
            let inherited = parentOf[entity.name].flatMap { declared[$0] } ?? [:]
            var members = MemberPlan(owner: "entity '\(entity.name)'", ownerName: entity.name, inherited: inherited)
            for attribute in entity.attributes {
                plan(attribute, into: &members, fallback: entity.location)
            }
            for relationship in entity.relationships {
                let location = relationship.location ?? entity.location
                guard
                    let name = members.admit(
                        relationship.name, kind: "relationship", location: location,
                        typeNames: typeNames)
                else { continue }
                guard let destination = proxyNameOf[relationship.destinationEntityName] else {
                    members.warn(
                        "relationship '\(relationship.name)' of entity '\(entity.name)' leads to entity "
                            + "'\(relationship.destinationEntityName)', which is not in the model; no proxy property is "
                            + "generated. Fix the destination in the model", at: location)
                    continue
                }
                members.add(ProxyProperty(name: name, key: relationship.name, kind: .entity(destination)))
            }
            for fetched in entity.fetchedProperties {
                members.warn(
                    "fetched property '\(fetched.name)' of entity '\(entity.name)' gets no proxy property: "
                        + "a fetch cannot filter or sort by a fetched property. Query its destination entity instead",
                    at: fetched.location ?? entity.location)
            }
            entityDiagnostics[entity.name, default: []] += members.diagnostics
            declared[entity.name] = inherited.merging(members.names) { first, _ in first }
            result[entity.name] = members.properties
        }
        return result
    }

    /// The proxies of the model's composites, which Composite attributes use.
    private mutating func planComposites() -> [EntityProxy] {
        composites.map { composite in
            var members = MemberPlan(owner: "composite '\(composite.name)'", ownerName: composite.name, inherited: [:])
            for attribute in composite.attributes {
                plan(attribute, into: &members, fallback: composite.location)
            }
            compositeDiagnostics += members.diagnostics
            return EntityProxy(
                entityName: composite.name,
                proxyName: compositeProxyOf[composite.name] ?? composite.name + "Composite" + options.suffix,
                properties: members.properties,
                isComposite: true
            )
        }
    }

    private func plan(_ attribute: AttributeDescription, into members: inout MemberPlan, fallback: SourceLocation?) {
        let location = attribute.location ?? fallback
        guard let name = members.admit(attribute.name, kind: "attribute", location: location, typeNames: typeNames) else {
            return
        }
        if attribute.type == .composite {
            let compositeName = attribute.compositeName ?? ""
            guard let proxy = compositeProxyOf[compositeName] else {
                members.warn(
                    "attribute '\(attribute.name)' of \(members.owner) is a Composite attribute whose composite "
                        + "'\(compositeName)' is not in the model; no proxy property is generated. Fix the composite "
                        + "name in the model", at: location)
                return
            }
            members.add(ProxyProperty(name: name, key: attribute.name, kind: .entity(proxy)))
            return
        }
        guard let type = RuntimeNames.proxyType(for: attribute.type) else {
            members.warn(missingTypeMessage(attribute, owner: members.owner), at: location)
            return
        }
        members.add(ProxyProperty(name: name, key: attribute.name, kind: .runtime(type)))
    }

    private func missingTypeMessage(_ attribute: AttributeDescription, owner: String) -> String {
        let subject = "attribute '\(attribute.name)' of \(owner)"
        switch attribute.type {
        case .undefined:
            return "\(subject) has no type (Undefined, as Xcode allows for transient attributes); no proxy property "
                + "is generated because there is no value type to compare. Give it a type in the model to query it"
        case .objectID:
            return "\(subject) has type ObjectID, which Xcode does not offer and which has no proxy type; no proxy "
                + "property is generated. Model it as a relationship to query it"
        default:
            return "\(subject) has type \(attribute.type.rawValue), which has no proxy type"
        }
    }
}
