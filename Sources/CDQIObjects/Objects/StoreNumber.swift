import Foundation

/// A store identifier (a store's UUID) interned to a number for the life of the process: an object ID
/// holds this plain integer rather than the identifier's string.
///
/// Every ID of a store held the same string, so making and freeing IDs wrote its reference count:
/// contexts fetching on several threads at once took turns writing that one cache line (about one
/// write per object made and one per object freed), which costs little when the threads share a core's
/// caches and a lot when they do not. An integer is copied without touching shared memory, and compared
/// and hashed faster. Identifiers are kept once interned: a process opens few stores.
package struct StoreNumber: Hashable, Sendable {
    /// The number; 0 is the empty identifier (temporary IDs).
    package let value: Int

    /// The empty identifier: the store of temporary IDs.
    package static let none = StoreNumber(value: 0)

    init(value: Int) {
        self.value = value
    }

    /// The number of `identifier`, interned now if it is new.
    package init(_ identifier: String) {
        value = identifier.isEmpty ? 0 : StoreNumberTable.shared.number(of: identifier)
    }

    /// The identifier this number stands for.
    package var identifier: String {
        value == 0 ? "" : StoreNumberTable.shared.identifier(of: value)
    }
}

/// The identifiers interned so far, by number, and their numbers.
private final class StoreNumberTable: @unchecked Sendable {
    static let shared = StoreNumberTable()

    // Guarded by `lock` (an NSLock rather than a Mutex: ThreadSanitizer sees through it).
    private let lock = NSLock()
    private var numbers: [String: Int] = [:]
    /// `identifiers[n - 1]` is the identifier numbered `n`.
    private var identifiers: [String] = []

    func number(of identifier: String) -> Int {
        lock.withLock {
            if let number = numbers[identifier] { return number }
            identifiers.append(identifier)
            numbers[identifier] = identifiers.count
            return identifiers.count
        }
    }

    func identifier(of number: Int) -> String {
        lock.withLock { identifiers.indices.contains(number - 1) ? identifiers[number - 1] : "" }
    }
}
