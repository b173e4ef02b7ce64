import CDQIModel
import CDQIStore
import Foundation
import Query

// The fixture of the Query tests, written in Swift (see Fixtures/README.md): the entity of lightyear's
// README examples (`Entity` with `quantity`, `date`, `name`, `department`) plus attributes of the other
// bound types ranges are tested with, a second entity that is found by its class name in the model, and
// classes that find no entity or the wrong one.

/// The model: `Entity`, `Tool` (class `Gadget` in the model) and `Bare` (no `id`).
enum EntityModel {
    static let model: ManagedObjectModel = {
        func attribute(
            _ name: String, _ type: AttributeType, optional: Bool = true, default value: String? = nil
        )
            -> AttributeDescription
        {
            var attribute = AttributeDescription(name: name, type: type, isOptional: optional)
            attribute.defaultValueString = value
            return attribute
        }
        var entity = EntityDescription(name: "Entity", representedClassName: "Entity")
        entity.attributes = [
            attribute("id", .uuid),
            attribute("quantity", .integer32, optional: false, default: "0"),
            attribute("date", .date),
            attribute("name", .string),
            attribute("department", .string),
            attribute("price", .double, optional: false, default: "0"),
            attribute("cost", .decimal),
        ]
        var tool = EntityDescription(name: "Tool", representedClassName: "App.Gadget")
        tool.attributes = [attribute("label", .string)]
        var bare = EntityDescription(name: "Bare")
        bare.attributes = [attribute("label", .string)]
        return ManagedObjectModel(entities: [entity, tool, bare])
    }()

    /// A new in-memory store of the model with `Entity` registered, so tests may insert `Entity`
    /// objects before any query runs. (A query registers its class itself on first use when nothing
    /// is registered for its entity: `FirstOrInsertTests` and `Gadget` rely on that.)
    static func container() throws -> PersistentContainer {
        let container = try PersistentContainer(model: model, url: nil)
        container.coordinator.register(Entity.self, forEntityName: "Entity")
        return container
    }

    /// A new context on ``container()``.
    static func context() throws -> ManagedObjectContext {
        try container().newContext()
    }
}

/// lightyear's README entity, with properties reading and writing through key-value access.
final class Entity: ManagedObject, Identifiable {
    var id: UUID? {
        get { (try? value(forKey: "id")) as? UUID }
        set { try? setValue(newValue, forKey: "id") }
    }
    var quantity: Int32 {
        get { ((try? value(forKey: "quantity")) as? Int32) ?? 0 }
        set { try? setValue(newValue, forKey: "quantity") }
    }
    var date: Date? {
        get { (try? value(forKey: "date")) as? Date }
        set { try? setValue(newValue, forKey: "date") }
    }
    var name: String? {
        get { (try? value(forKey: "name")) as? String }
        set { try? setValue(newValue, forKey: "name") }
    }
    var department: String? {
        get { (try? value(forKey: "department")) as? String }
        set { try? setValue(newValue, forKey: "department") }
    }
    var price: Double {
        get { ((try? value(forKey: "price")) as? Double) ?? 0 }
        set { try? setValue(newValue, forKey: "price") }
    }
    var cost: Decimal? {
        get { (try? value(forKey: "cost")) as? Decimal }
        set { try? setValue(newValue, forKey: "cost") }
    }
}

extension Entity: Queryable {
    enum Attribute {
        case id, quantity, date, name, department, price, cost
        /// Not an attribute of the model: for the unknown-key errors.
        case nope
    }
}

/// The class the model names for `Tool` (`App.Gadget`): found by class name, not entity name. Not
/// final: `SpecialGadget` subclasses it.
class Gadget: ManagedObject, Queryable {
    enum Attribute { case label }
}

/// `Bare` has no `id` attribute.
final class Bare: ManagedObject, Identifiable, Queryable {
    enum Attribute { case label }
    var id: UUID? { (try? value(forKey: "id")) as? UUID }
}

/// No entity is named `Stray` or has it as its class.
final class Stray: ManagedObject, Queryable {
    enum Attribute { case label }
}

/// A class registered for `Bare` by a test, to query it as another class.
final class OtherBare: ManagedObject {}
