import CDQIModel
import Testing

@testable import CDQIObjects
@testable import CDQISQLite
@testable import CDQIStore

/// `PersistentStoreCoordinator.entityName(forClass:)`: registration first, then the model's class
/// name, then the entity's own name.
@Suite("Entity name for a class")
struct EntityNameForClassTests {
    final class Gizmo: ManagedObject {}
    final class Widget: ManagedObject {}
    final class Orphan: ManagedObject {}

    /// `Widget` (class `Kit.Gizmo` in the model) and `Gizmo` (no class).
    private func coordinator() throws -> PersistentStoreCoordinator {
        var widget = EntityDescription(name: "Widget", representedClassName: "Kit.Gizmo")
        widget.attributes = [AttributeDescription(name: "label", type: .string, isOptional: true)]
        var gizmo = EntityDescription(name: "Gizmo")
        gizmo.attributes = [AttributeDescription(name: "label", type: .string, isOptional: true)]
        return try PersistentStoreCoordinator(model: ManagedObjectModel(entities: [widget, gizmo]), url: nil)
    }

    @Test("the model's class name wins over an entity named like the class; the entity name is the fallback")
    func fromTheModel() throws {
        let coordinator = try coordinator()
        #expect(coordinator.entityName(forClass: Gizmo.self) == "Widget")
        #expect(coordinator.entityName(forClass: Widget.self) == "Widget")
        #expect(coordinator.entityName(forClass: Orphan.self) == nil)
    }

    @Test("a registration wins over the model")
    func fromTheRegistry() throws {
        let coordinator = try coordinator()
        coordinator.register(Gizmo.self, forEntityName: "Gizmo")
        #expect(coordinator.entityName(forClass: Gizmo.self) == "Gizmo")
        coordinator.register(Orphan.self, forEntityName: "Widget")
        #expect(coordinator.entityName(forClass: Orphan.self) == "Widget")
    }
}
