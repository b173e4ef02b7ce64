import Foundation
import Testing

@testable import CDQIObjects
@testable import CDQIStore

/// Store identifiers interned to numbers: object IDs hold the number, and still name, compare and hash
/// by their store's identifier.
@Suite("Store numbers")
struct StoreNumberTests {
    @Test("an identifier has one number for the process, which gives the identifier back")
    func numbersRoundTrip() {
        let identifier = UUID().uuidString
        let first = StoreNumber(identifier)
        #expect(first == StoreNumber(identifier))
        #expect(first.identifier == identifier)
        #expect(first != .none)
        // Another identifier (even one differing only in case) has another number.
        let other = StoreNumber(identifier.lowercased())
        #expect(other != first)
        #expect(other.identifier == identifier.lowercased())
        #expect(StoreNumber("") == .none)
        #expect(StoreNumber.none.identifier == "")
    }

    @Test("threads interning the same identifiers at once agree on their numbers")
    func concurrentInterning() async {
        let identifiers = (0..<50).map { _ in UUID().uuidString }
        let results = await withTaskGroup(of: [Int].self) { group in
            for _ in 0..<8 {
                group.addTask { identifiers.shuffled().sorted().map { StoreNumber($0).value } }
            }
            var all: [[Int]] = []
            for await numbers in group { all.append(numbers) }
            return all
        }
        let sorted = identifiers.sorted()
        #expect(Set(results).count == 1)
        let numbers = results.first ?? []
        #expect(Set(numbers).count == identifiers.count)
        #expect(zip(sorted, numbers).allSatisfy { StoreNumber(value: $1).identifier == $0 })
    }

    @Test("object IDs of two stores differ, and an ID names its store in its URI")
    func idsOfTwoStores() throws {
        let (first, _) = try ContextTestSupport.employeeIDs()
        let (second, _) = try ContextTestSupport.employeeIDs()
        let employee = try #require(first.coordinator.layout.entity(named: "Employee"))
        let a = ManagedObjectID(entity: EntityHandle(employee), store: first.coordinator.storeNumber, primaryKey: 7)
        let b = ManagedObjectID(entity: EntityHandle(employee), store: second.coordinator.storeNumber, primaryKey: 7)
        #expect(first.coordinator.storeIdentifier != second.coordinator.storeIdentifier)
        #expect(a != b)
        #expect(a == ManagedObjectID(entity: EntityHandle(employee), store: StoreNumber(first.coordinator.storeIdentifier), primaryKey: 7))
        #expect(a.storeIdentifier == first.coordinator.storeIdentifier)
        #expect(a.uriString == "x-coredata://\(first.coordinator.storeIdentifier)/Employee/p7")
        #expect(Set([a, b, a]).count == 2)
    }
}
