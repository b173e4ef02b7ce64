import Foundation
import Testing

@testable import CDQIObjects
@testable import CDQISQLite
@testable import CDQIStore

/// The context's registry against Swift's dictionary (the second evaluator) under random inserts,
/// replacements, lookups and removals: dense and strided keys that collide in the table, two hierarchies,
/// temporary IDs of this process and of another one, and IDs of another store.
@Suite("Object registry")
struct ObjectRegistryTests {
    /// A deterministic generator (SplitMix64), so that a failure reproduces.
    struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    @Test("agrees with a dictionary over 40,000 random operations", arguments: [1 as UInt64, 2, 3])
    func randomOperations(seed: UInt64) throws {
        let context = try ContextTestSupport.memoryContext("Company")
        let layout = context.coordinator.layout
        let entities = try ["Employee", "Department"].map { try #require(layout.entity(named: $0)) }
        let store = context.coordinator.storeIdentifier
        let temporaries = (0..<20).map { _ in ManagedObjectID(temporaryFor: EntityHandle(entities[0])) }
        // Temporary IDs of another process (as parsed from a URI).
        let foreign = (0..<5).map { _ in ManagedObjectID(entity: EntityHandle(entities[1]), store: StoreNumber(""), identity: .temporary(UUID())) }
        var generator = SplitMix(state: seed)

        func randomID() -> ManagedObjectID {
            switch Int.random(in: 0..<11, using: &generator) {
            case 0: return temporaries.randomElement(using: &generator) ?? temporaries[0]
            case 10: return foreign.randomElement(using: &generator) ?? foreign[0]
            case 1:
                return ManagedObjectID(entity: EntityHandle(entities[0]), store: StoreNumber("OTHER"), primaryKey: Int64.random(in: 1...8, using: &generator))
            case 2:
                return ManagedObjectID(
                    entity: EntityHandle(entities[1]), store: StoreNumber(store), primaryKey: Int64.random(in: 0...40, using: &generator) * 1024)
            default:
                let entity = entities.randomElement(using: &generator) ?? entities[0]
                return ManagedObjectID(entity: EntityHandle(entity), store: StoreNumber(store), primaryKey: Int64.random(in: 1...300, using: &generator))
            }
        }

        var registry = ObjectRegistry(store: StoreNumber(store))
        var reference: [ManagedObjectID: ManagedObject] = [:]
        for step in 0..<40_000 {
            let id = randomID()
            switch Int.random(in: 0..<5, using: &generator) {
            case 0:
                // Look up, and register a new object only when there is none (as the context does).
                if let found = registry[id] {
                    #expect(found === reference[id], "step \(step)")
                } else {
                    #expect(reference[id] == nil, "step \(step)")
                    let made = ManagedObject(entity: id.entity, objectID: id, context: nil)
                    registry[id] = made
                    reference[id] = made
                }
            case 1:
                let object = ManagedObject(entity: id.entity, objectID: id, context: nil)
                registry[id] = object
                reference[id] = object
            case 2:
                #expect(registry.removeValue(forKey: id) === reference.removeValue(forKey: id), "step \(step)")
            default:
                #expect(registry[id] === reference[id], "step \(step)")
            }
            #expect(registry.count == reference.count, "step \(step)")
        }
        let expected = Set(reference.values.map(ObjectIdentifier.init))
        #expect(Set(registry.values.map(ObjectIdentifier.init)) == expected)
        for (id, object) in reference { #expect(registry[id] === object) }
        registry.removeAll()
        #expect(registry.count == 0 && registry.values.isEmpty)
    }
}

extension ObjectRegistryTests {
    @Test("keys first held in the hashed table stay found once the array by primary key grows over them")
    func keysMoveIntoTheArray() throws {
        let (context, id) = try ContextTestSupport.employeeIDs()
        let entity = id(1).entity
        var registry = ObjectRegistry(store: StoreNumber(context.coordinator.storeIdentifier))
        var reference: [Int64: ManagedObject] = [:]
        // Far keys first: beyond what an array may hold for a nearly empty registry.
        let far: [Int64] = [25_000, 31_999, 40_000, 90_000, 1 << 40]
        // Then 20,000 dense keys, which let the array grow over the first two far keys.
        for key in far + Array(1...20_000) {
            let object = ManagedObject(entity: entity, objectID: id(key), context: nil)
            #expect(registry[id(key)] == nil)
            registry[id(key)] = object
            reference[key] = object
        }
        #expect(registry.count == 20_005)
        for (key, object) in reference { #expect(registry[id(key)] === object, "key \(key)") }
        // Removing and re-adding keeps one object per key.
        for key in far { #expect(registry.removeValue(forKey: id(key)) === reference[key]) }
        #expect(registry.count == 20_000)
        for key in far { #expect(registry[id(key)] == nil) }
        let expected = Set((1...20_000).compactMap { reference[Int64($0)] }.map(ObjectIdentifier.init))
        let valuesAgree = Set(registry.values.map(ObjectIdentifier.init)) == expected
        #expect(valuesAgree)
    }
}

extension ObjectRegistryTests {
    @Test("temporary IDs: registered, half removed, all removed and registered again")
    func temporaryRuns() throws {
        let context = try ContextTestSupport.memoryContext("Company")
        let entity = try #require(context.coordinator.layout.entity(named: "Employee"))
        var registry = ObjectRegistry(store: StoreNumber(context.coordinator.storeIdentifier))
        let ids = (0..<5_000).map { _ in ManagedObjectID(temporaryFor: EntityHandle(entity)) }
        var objects: [ManagedObject] = []
        for id in ids {
            let object = ManagedObject(entity: entity, objectID: id, context: nil)
            registry[id] = object
            objects.append(object)
        }
        #expect(registry.count == 5_000)
        for index in stride(from: 0, to: ids.count, by: 2) { registry[ids[index]] = nil }
        #expect(registry.count == 2_500)
        let found = ids.indices.filter { registry[ids[$0]] === objects[$0] }
        #expect(found == Array(stride(from: 1, to: ids.count, by: 2)))
        for id in ids { registry[id] = nil }
        #expect(registry.count == 0 && registry.values.isEmpty)
        // Registering again after the run emptied: old and new IDs.
        let later = (0..<10).map { _ in ManagedObjectID(temporaryFor: EntityHandle(entity)) }
        for id in [ids[7]] + later { registry[id] = ManagedObject(entity: entity, objectID: id, context: nil) }
        #expect(registry.count == 11)
        #expect(([ids[7]] + later).allSatisfy { registry[$0]?.objectID == $0 })
        #expect(registry[ids[8]] == nil)
    }

    @Test("a run that empties restarts at the next key, taking over the keys the table held in its new range")
    func emptiedRunRestarts() throws {
        let context = try ContextTestSupport.memoryContext("Company")
        let employee = try #require(context.coordinator.layout.entity(named: "Employee"))
        let store = context.coordinator.storeIdentifier
        func id(_ key: Int64) -> ManagedObjectID { ManagedObjectID(entity: EntityHandle(employee), store: StoreNumber(store), primaryKey: key) }
        func object(_ key: Int64) -> ManagedObject { ManagedObject(entity: employee, objectID: id(key), context: nil) }
        var registry = ObjectRegistry(store: StoreNumber(store))
        // Keys 1…100 fill a run starting at 0; 5,000 lies beyond what it may cover (1,024 keys with so
        // few objects), so it goes to the table.
        let early = (1...100).map { object(Int64($0)) }
        for made in early { registry[made.objectID] = made }
        let far = object(5_000)
        registry[far.objectID] = far
        // The run empties, as a fetch cursor's does after a batch.
        for made in early { registry[made.objectID] = nil }
        #expect(registry.count == 1)
        // 5,001 restarts the run at 4,096 (its multiple of 1,024), whose range holds 5,000.
        let next = object(5_001)
        registry[next.objectID] = next
        #expect(registry[id(5_000)] === far)
        #expect(registry[id(5_001)] === next)
        #expect(registry.count == 2)
        // A key before the new start lives in the table, and is found there.
        let before = object(50)
        registry[before.objectID] = before
        #expect(registry[id(50)] === before)
        #expect(registry[id(51)] == nil)
        #expect(registry.count == 3)
        registry[far.objectID] = nil
        #expect(registry[id(5_000)] == nil)
        #expect(Set(registry.values.map(ObjectIdentifier.init)) == Set([next, before].map(ObjectIdentifier.init)))
    }
}
