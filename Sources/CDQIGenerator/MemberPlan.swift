import CDQIModel

/// The properties of one proxy being planned, with the rules every property name must pass.
struct MemberPlan {
    /// How warnings name the owner: `entity 'Employee'` or `composite 'Address'`.
    let owner: String
    let ownerName: String
    /// Names the proxy inherits, with the entity that declares each.
    let inherited: [String: String]
    private(set) var properties: [ProxyProperty] = []
    private(set) var names: [String: String] = [:]
    private(set) var diagnostics: [ModelDiagnostic] = []

    init(owner: String, ownerName: String, inherited: [String: String]) {
        self.owner = owner
        self.ownerName = ownerName
        self.inherited = inherited
    }

    mutating func warn(_ message: String, at location: SourceLocation?) {
        diagnostics.append(ModelDiagnostic(.warning, message, at: location))
    }

    mutating func add(_ property: ProxyProperty) {
        names[property.name] = ownerName
        properties.append(property)
    }

    /// The Swift name for the property `key`, or `nil` (with a warning) when it cannot have one.
    mutating func admit(_ key: String, kind: String, location: SourceLocation?, typeNames: Set<String>) -> String? {
        if key.hasPrefix("cdqi") {
            warn(
                "\(kind) '\(key)' of \(owner) starts with 'cdqi', which \(RuntimeNames.module) reserves for the "
                    + "proxies' own members; no proxy property is generated. Rename it in the model, or refer to it by "
                    + "its key path in a format string", at: location)
            return nil
        }
        var name = key
        if !SwiftIdentifier.isValid(name) {
            name = SwiftIdentifier.sanitized(key)
            warn(
                "\(kind) name '\(key)' of \(owner) is not a valid Swift identifier; its proxy property is named "
                    + "'\(name)' (the key path stays '\(key)'). Rename it in the model to choose the name", at: location)
        }
        if let declarer = inherited[name] {
            warn(
                "\(kind) '\(key)' of \(owner) has the name of a property inherited from entity '\(declarer)'; the "
                    + "proxy keeps the inherited property. Rename one of them in the model", at: location)
            return nil
        }
        if names[name] != nil {
            warn(
                "\(owner) declares the property name '\(name)' more than once; only the first gets a proxy "
                    + "property. Rename the other in the model", at: location)
            return nil
        }
        if typeNames.contains(name) {
            warn(
                "\(kind) '\(key)' of \(owner) has the name of a type the proxies use, which would hide that type "
                    + "inside the proxy; no proxy property is generated. Rename it in the model", at: location)
            return nil
        }
        return name
    }
}
