import CoreDataQueryInterface
import Foundation
import Testing

@testable import CDQIObjects
@testable import CDQISQLite
@testable import CDQIStore

/// The read connections of a store file: reads of different contexts at the same time, reads while a
/// save is in progress (seeing none of it), the reader count as an option, the in-memory store's one
/// connection. Data set: `ConcurrencyFixture` (5 employees).
@Suite("Concurrency: parallel readers beside one writer")
struct ParallelReaderTests {
    private static let employees = FetchRequest(entityName: "Employee")

    /// Inserts two employees with raw SQL in an open transaction on the writer, signals `inserted`,
    /// and commits once `release` is signalled: a save caught in the middle.
    private static func halfDoneSave(
        _ coordinator: PersistentStoreCoordinator, inserted: DispatchSemaphore, release: DispatchSemaphore
    ) -> ThreadResult<Void> {
        ThreadResult {
            try coordinator.withStore { store in
                try store.connection.writeTransaction {
                    let entity = Int64(try #require(coordinator.layout.entity(named: "Employee")).number)
                    for key: Int64 in [100, 101] {
                        let insert = try store.connection.prepareUncached(
                            "INSERT INTO ZEMPLOYEE (Z_PK, Z_ENT, Z_OPT, ZFIRSTNAME, ZLASTNAME, ZSALARY) VALUES (?, ?, 1, 'Zed', 'Z', 1)")
                        try insert.bind(key, at: 1)
                        try insert.bind(entity, at: 2)
                        try insert.run()
                    }
                    inserted.signal()
                    _ = release.wait(timeout: .now() + 10)
                }
            }
        }
    }

    @Test("a fetch runs while a save holds the writer, and sees none of the save")
    func readsDoNotWaitForSaves() throws {
        let (container, _, cleanUp) = try ConcurrencyFixture.fileContainer()
        defer { cleanUp() }
        #expect(container.coordinator.readerCount == PersistentStoreCoordinator.defaultReaderCount)
        let inserted = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        let save = Self.halfDoneSave(container.coordinator, inserted: inserted, release: release)
        #expect(inserted.wait(timeout: .now() + 10) == .success)
        let read = ThreadResult { try container.newContext().count(for: Self.employees) }
        let during = read.wait(seconds: 10)
        // Firing a fault and loading a to-many relationship read through the pool too.
        let annID = try #require(try container.newContext().from(Employee.self).filter { $0.firstName == "Ann" }.ids().first())
        let related = ThreadResult { () throws -> [String] in
            let context = container.newContext()
            let ann = context.object(with: annID)
            let department = try #require(try ann.value(forKey: "department") as? ManagedObject)
            return try department.objects(forKey: "employees").map { try $0.value(forKey: "firstName") as? String ?? "" }.sorted()
        }
        let relatedDuring = related.wait(seconds: 10)
        release.signal()
        #expect(try save.wait(seconds: 10)?.get() != nil)
        // 5 employees; the two inserted rows were not committed yet.
        #expect(try during?.get() == 5)
        #expect(try relatedDuring?.get() == ["Ann", "Bob"])
        #expect(try container.newContext().count(for: Self.employees) == 7)
    }

    @Test("with a reader count of 0, reads share the writer and wait for the save")
    func noReadersSerializes() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cdqi-readers-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("Company.sqlite")
        _ = try ConcurrencyFixture.container(url: url)
        let container = try PersistentContainer(model: try ConcurrencyFixture.model(), url: url, readerCount: 0)
        #expect(container.coordinator.readerCount == 0)
        let inserted = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        let save = Self.halfDoneSave(container.coordinator, inserted: inserted, release: release)
        #expect(inserted.wait(timeout: .now() + 10) == .success)
        let read = ThreadResult { try container.newContext().count(for: Self.employees) }
        #expect(read.wait(seconds: 0.5) == nil)  // still waiting for the writer
        release.signal()
        #expect(try save.wait(seconds: 10)?.get() != nil)
        #expect(try read.wait(seconds: 10)?.get() == 7)
    }

    /// Starts `count` reads, each on a thread of its own holding its connection until `release` is
    /// signalled (once per read), and returns when all of them hold one.
    private static func heldReads(
        _ count: Int, on coordinator: PersistentStoreCoordinator
    ) -> (reads: [ThreadResult<Int>], release: DispatchSemaphore) {
        let release = DispatchSemaphore(value: 0)
        let held = (0..<count).map { _ in DispatchSemaphore(value: 0) }
        let reads = held.map { signal in
            ThreadResult {
                try coordinator.withReader { store in
                    signal.signal()
                    _ = release.wait(timeout: .now() + 10)
                    return try store.count(Self.employees)
                }
            }
        }
        for signal in held { #expect(signal.wait(timeout: .now() + 10) == .success) }
        return (reads, release)
    }

    @Test("reads of different contexts run at the same time, on the idle writer and up to the reader count, and wait beyond it")
    func readersInParallelUpToTheCount() throws {
        let (container, url, cleanUp) = try ConcurrencyFixture.fileContainer()
        defer { cleanUp() }
        for capacity in [2, 1] {
            let coordinator = try PersistentStoreCoordinator(model: try ConcurrencyFixture.model(), url: url, readerCount: capacity)
            // The first read takes the idle writer, the others a reader each: capacity + 1 at once.
            let (holders, release) = Self.heldReads(capacity + 1, on: coordinator)
            #expect(coordinator.openReaderCount == capacity)
            // Every connection is taken: another context's count waits until one is put back.
            let other = ThreadResult { try ManagedObjectContext(coordinator: coordinator).count(for: Self.employees) }
            #expect(other.wait(seconds: 0.5) == nil)
            for _ in holders { release.signal() }
            for holder in holders { #expect(try holder.wait(seconds: 10)?.get() == 5) }
            #expect(try other.wait(seconds: 10)?.get() == 5)
            #expect(coordinator.openReaderCount == capacity)
        }
        _ = container
    }

    @Test("a context reading alone reads on the idle writer and opens no reader")
    func aLoneContextStaysOnTheWriter() throws {
        let (container, _, cleanUp) = try ConcurrencyFixture.fileContainer()
        defer { cleanUp() }
        let context = container.newContext()
        #expect(try context.count(for: Self.employees) == 5)
        #expect(try context.fetch(Self.employees).count == 5)
        let anns = try context.from(Employee.self).filter { $0.firstName == "Ann" }.all()
        #expect(anns.count == 1)
        #expect(container.coordinator.openReaderCount == 0)
    }

    @Test("reads leave the writer to a save waiting for it, and take readers meanwhile")
    func readsLeaveTheWriterToAWaitingSave() throws {
        let (container, _, cleanUp) = try ConcurrencyFixture.fileContainer()
        defer { cleanUp() }
        let coordinator = container.coordinator
        // A read holds the idle writer.
        let holding = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        let holder = ThreadResult {
            try coordinator.withReader { store in
                holding.signal()
                _ = release.wait(timeout: .now() + 10)
                return try store.count(Self.employees)
            }
        }
        #expect(holding.wait(timeout: .now() + 10) == .success)
        // A save waits for it.
        let save = ThreadResult { () throws -> Int in
            let context = container.newContext()
            let employee = try context.insertNewObject(forEntityName: "Employee")
            try employee.setValue("Zoe", forKey: "firstName")
            try employee.setValue("Z", forKey: "lastName")
            return try context.save().inserted.count
        }
        #expect(save.wait(seconds: 0.3) == nil)
        // It is counted as waiting, so that reads leave the writer to it once the read lets go.
        #expect((coordinator.store as? SQLitePersistentStore)?.writerWaiters == 1)
        // Reads meanwhile run on readers, without waiting, and see none of the save.
        for _ in 0..<20 {
            #expect(try container.newContext().count(for: Self.employees) == 5)
        }
        #expect(coordinator.openReaderCount >= 1)
        release.signal()
        #expect(try holder.wait(seconds: 10)?.get() == 5)
        #expect(try save.wait(seconds: 10)?.get() == 1)
        #expect(try container.newContext().count(for: Self.employees) == 6)
    }

    @Test(
        "many threads through few readers and the writer: none waits forever, no connection serves two at once, all come back",
        arguments: [1, 2, 3])
    func manyThreadsThroughFewReaders(capacity: Int) throws {
        let (container, url, cleanUp) = try ConcurrencyFixture.fileContainer()
        defer { cleanUp() }
        let coordinator = try PersistentStoreCoordinator(model: try ConcurrencyFixture.model(), url: url, readerCount: capacity)
        // Readers in use now (by identity), and the most in use at once. (Behind an NSLock, which
        // ThreadSanitizer understands; it does not see the futex under Synchronization's Mutex.)
        let inUse = LockedValue<(readers: Set<ObjectIdentifier>, most: Int, overlaps: Int)>(([], 0, 0))
        let threads = (0..<8).map { _ in
            ThreadResult {
                var total = 0
                for _ in 0..<400 {
                    total += try coordinator.withReader { store in
                        inUse.withLock { state in
                            if !state.readers.insert(ObjectIdentifier(store)).inserted { state.overlaps += 1 }
                            state.most = max(state.most, state.readers.count)
                        }
                        defer { _ = inUse.withLock { $0.readers.remove(ObjectIdentifier(store)) } }
                        return try store.count(Self.employees)
                    }
                }
                return total
            }
        }
        // A lost wake-up would leave a thread waiting for a reader forever.
        let deadline = Date().addingTimeInterval(60)
        for thread in threads {
            #expect(try thread.wait(seconds: max(0, deadline.timeIntervalSinceNow))?.get() == 400 * 5)
        }
        let state = inUse.withLock { $0 }
        #expect(state.overlaps == 0)
        // The readers and the writer (a read takes it when idle).
        #expect(state.most <= capacity + 1)
        #expect(state.readers.isEmpty)
        #expect(coordinator.openReaderCount <= capacity)
        // Every connection came back: as many reads as readers and the writer, held at once, do not wait.
        let (holders, release) = Self.heldReads(capacity + 1, on: coordinator)
        for _ in holders { release.signal() }
        for holder in holders { #expect(try holder.wait(seconds: 10)?.get() == 5) }
        _ = container
    }

    @Test("an in-memory store keeps one connection for reads and saves")
    func inMemoryStoreHasNoReaders() async throws {
        let container = try ConcurrencyFixture.container()
        #expect(container.coordinator.readerCount == 0)
        // Two background tasks, each saving one employee, and a read of all of them after.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for name in ["Gus", "Hal"] {
                group.addTask {
                    try await container.performBackgroundTask { context in
                        let employee = try context.insertNewObject(forEntityName: "Employee")
                        try employee.setValue(name, forKey: "firstName")
                        try employee.setValue("X", forKey: "lastName")
                        try context.save()
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(try await Query.from(Employee.self).count(in: container) == 7)
    }

    @Test("concurrent saves of two objects each and concurrent fetches: every fetch sees whole saves, in order")
    func fetchesSeeWholeSaves() async throws {
        let (container, url, cleanUp) = try ConcurrencyFixture.fileContainer()
        defer { cleanUp() }
        let writers = 4, savesEach = 10
        let observed = try await withThrowingTaskGroup(of: [Int].self) { group in
            for writer in 0..<writers {
                group.addTask {
                    for save in 0..<savesEach {
                        try await container.performBackgroundTask { context in
                            for index in 0..<2 {
                                let employee = try context.insertNewObject(forEntityName: "Employee")
                                try employee.setValue("w\(writer)-s\(save)-\(index)", forKey: "firstName")
                                try employee.setValue("W", forKey: "lastName")
                            }
                            try context.save()
                        }
                    }
                    return []
                }
            }
            for _ in 0..<4 {
                group.addTask {
                    try await container.performBackgroundTask { context in
                        var counts: [Int] = []
                        for _ in 0..<60 {
                            counts.append(try context.count(for: Self.employees))
                            counts.append(try context.fetchObjectIDs(Self.employees).count)
                        }
                        return counts
                    }
                }
            }
            var all: [[Int]] = []
            for try await counts in group where !counts.isEmpty { all.append(counts) }
            return all
        }
        #expect(observed.count == 4)
        for counts in observed {
            // 5 to start, then 2 per save: only odd counts from 5 to 85, never half a save...
            #expect(counts.allSatisfy { $0 >= 5 && $0 <= 5 + 2 * writers * savesEach && ($0 - 5) % 2 == 0 })
            // ...and never going back: each read sees at least what the previous one saw.
            #expect(zip(counts, counts.dropFirst()).allSatisfy { $0 <= $1 })
        }
        #expect(try container.newContext().count(for: Self.employees) == 85)
        #expect(container.coordinator.openReaderCount <= PersistentStoreCoordinator.defaultReaderCount)
        let check = try SQLiteConnection(path: url.path, mode: .readOnly).prepareUncached("PRAGMA integrity_check")
        #expect(try check.step() && check.string(0) == "ok")
    }
}

/// Runs a closure on a thread of its own; its result can be waited for with a timeout. `result` is
/// only touched while holding `lock`.
final class ThreadResult<T: Sendable>: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var result: Result<T, any Error>?

    init(_ body: @escaping @Sendable () throws -> T) {
        Thread.detachNewThread { [self] in
            let outcome = Result(catching: body)
            lock.withLock { result = outcome }
            done.signal()
        }
    }

    /// The result, or `nil` when the closure has not finished within `seconds`.
    func wait(seconds: Double) -> Result<T, any Error>? {
        if let finished = lock.withLock({ result }) { return finished }
        guard done.wait(timeout: .now() + seconds) == .success else { return nil }
        done.signal()  // later waits return at once
        return lock.withLock { result }
    }
}

/// A value behind an `NSLock`, for tests run under ThreadSanitizer.
final class LockedValue<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
