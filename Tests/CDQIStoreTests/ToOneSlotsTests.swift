import Testing

@testable import CDQIObjects
@testable import CDQISQLite
@testable import CDQIStore

/// The to-one slots of an object: two inline, the rest in an array.
@Suite("To-one slots")
struct ToOneSlotsTests {
    @Test("every slot of 0 to 5 keeps its own destination, inline or not")
    func slots() throws {
        let context = try ContextTestSupport.memoryContext("Company")
        let entity = try #require(context.coordinator.layout.entity(named: "Employee"))
        let objects = (0..<5).map { _ in ManagedObject(entity: entity, objectID: ManagedObjectID(temporaryFor: EntityHandle(entity)), context: nil) }
        for count in 0...5 {
            var slots = ToOneSlots(count: count)
            #expect(slots.count == count && slots.indices == 0..<count)
            #expect(slots.map { $0 == nil } == Array(repeating: true, count: count))
            // Fill from the last slot down, so that a write to one slot landing in another shows.
            for slot in slots.indices.reversed() { slots[slot] = objects[slot] }
            #expect(slots.map { $0.map(ObjectIdentifier.init) } == objects.prefix(count).map(ObjectIdentifier.init))
            if count > 0 {
                slots[count - 1] = nil
                #expect(slots[count - 1] == nil && (count == 1 || slots[count - 2] === objects[count - 2]))
            }
            let rebuilt = ToOneSlots(Array(objects.prefix(count)))
            #expect(rebuilt.indices.allSatisfy { rebuilt[$0] === objects[$0] })
        }
    }
}
