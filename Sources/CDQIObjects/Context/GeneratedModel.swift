import CDQIModel
import Foundation

/// A model compiled into the program by `cdqi` (with `--objects`, or for entities whose code
/// generation is `class` or `category`), with the classes of its entities: no model file is needed at
/// run time.
///
/// `cdqi` writes a conforming enum named after the model (`CompanyModel`); open a store with it in one
/// line, and fetches return instances of the generated classes:
/// ```swift
/// let container = try PersistentContainer(model: CompanyModel.self, url: storeURL)   // or url: nil
/// let ann = try container.viewContext.insert(Employee.self)
/// ann.lastName = "Lee"
/// ```
///
/// From a bundle of several versions, `cdqi` writes a ``VersionedGeneratedModel``, which also carries
/// the earlier versions, so that opening migrates a store one of them wrote.
public protocol GeneratedModel {
    /// The model, built by generated code (its version hashes are those of the model file).
    static var model: ManagedObjectModel { get }
    /// Each entity that has a class, with that class. Sub-entities without a class of their own make
    /// objects of their nearest ancestor's class.
    static var entityClasses: [(entityName: String, objectClass: ManagedObject.Type)] { get }
}

/// Why a generated model could not be used.
public enum GeneratedModelError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The store could not be opened or created.
    case store(StoreError)
    /// The coordinator's model is not the model the classes were generated from, so their typed
    /// accessors would read the wrong slots.
    case modelMismatch(generatedModel: String, detail: String)

    /// A sentence describing the problem.
    public var description: String {
        switch self {
        case .store(let error):
            return error.description
        case .modelMismatch(let generatedModel, let detail):
            return "the classes of \(generatedModel) were generated from another model than the coordinator's "
                + "(\(detail)); open the store with \(generatedModel).model, or run cdqi again"
        }
    }
}

extension GeneratedModel {
    /// Registers every entity class with a coordinator, after checking that the coordinator's model is
    /// this model (the generated accessors rely on its layout).
    /// - Throws: ``GeneratedModelError/modelMismatch(generatedModel:detail:)`` when it is not.
    public static func register(in coordinator: PersistentStoreCoordinator) throws(GeneratedModelError) {
        let model = Self.model
        if coordinator.model != model {
            throw .modelMismatch(generatedModel: String(describing: Self.self), detail: difference(model, coordinator.model))
        }
        for (entityName, objectClass) in entityClasses {
            coordinator.register(objectClass, forEntityName: entityName)
        }
    }

    private static func difference(_ generated: ManagedObjectModel, _ other: ManagedObjectModel) -> String {
        let names = Set(generated.entities.map(\.name))
        let otherNames = Set(other.entities.map(\.name))
        if names != otherNames {
            let missing = names.subtracting(otherNames).sorted(), extra = otherNames.subtracting(names).sorted()
            var parts: [String] = []
            if !missing.isEmpty { parts.append("entities missing: \(missing.joined(separator: ", "))") }
            if !extra.isEmpty { parts.append("entities not generated: \(extra.joined(separator: ", "))") }
            return parts.joined(separator: "; ")
        }
        let changed = generated.entities.filter { other.entity(named: $0.name) != $0 }.map(\.name)
        if !changed.isEmpty { return "entities that differ: \(changed.joined(separator: ", "))" }
        return "model-level settings differ (fetch requests, configurations, composites or version)"
    }
}
