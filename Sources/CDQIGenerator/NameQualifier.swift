/// Writes the names of runtime, standard-library and Foundation types in generated code: plain, or
/// module-qualified (`Foundation.Date`) when a class of the model has the same name and would shadow it.
struct NameQualifier {
    /// The names the model's classes (and the generated model type) take.
    let shadowed: Set<String>

    /// `name`, qualified with its module when shadowed.
    func callAsFunction(_ name: String) -> String {
        guard shadowed.contains(name), let module = RuntimeNames.objectTypeModules[name] else { return name }
        return "\(module).\(name)"
    }
}
