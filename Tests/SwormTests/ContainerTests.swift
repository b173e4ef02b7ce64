import CDQIStore
import Foundation
import Sworm
import Synchronization
import Testing

// This file imports CDQIStore and Sworm together: the names both declare (`PersistentContainer`,
// `ManagedObjectContext`, `ManagedObject`) are qualified, as a user's file that imports both must.

/// `perform` and `schedule`: saving, resetting, logging, and many callers at once.
@Suite struct ContainerTests {
    private typealias Book = BookLibrary.Book

    @Test func performSavesResetsAndLeavesNoUsableWrapper() throws {
        let store = try TestStores.store(FixtureModels.library)
        let shared = store.newContext()
        let db = Sworm.PersistentContainer(managedObjectContext: { shared })
        let escaped = try db.perform { ctx in try ctx.insert(Book(name: "kept")) }
        // Saved (another context sees it) and reset (the context holds nothing).
        #expect(try store.newContext().count(for: FetchRequest(entityName: "Book")) == 1)
        #expect(shared.registeredObjects.isEmpty)
        #expect(!shared.hasChanges)
        // The wrapper outlived its perform: using it throws, it does not crash.
        #expect(throws: (any Error).self) { try escaped.decode() }
    }

    @Test func withoutCleanUpTheContextKeepsItsObjects() throws {
        let store = try TestStores.store(FixtureModels.library)
        let shared = store.newContext()
        let db = Sworm.PersistentContainer(managedObjectContext: { shared }, cleanUpAfterExecution: false)
        let object = try db.perform { ctx in try ctx.insert(Book(name: "kept")) }
        #expect(shared.registeredObjects.count == 1)
        #expect(try object.decode(\.name) == "kept")
    }

    @Test func aThrowingActionIsLoggedRethrownAndNotSaved() throws {
        struct Failure: Error, Equatable {}
        let logged = Mutex<[String]>([])
        let db = try TestStores.sworm(FixtureModels.library, logError: { error in logged.withLock { $0.append("\(error)") } })
        #expect(throws: Failure()) {
            try db.perform { ctx in
                try ctx.insert(Book(name: "lost"))
                throw Failure()
            }
        }
        #expect(logged.withLock { $0 } == ["Failure()"])
        #expect(try db.perform { ctx in try ctx.count(of: Book.all) } == 0)
    }

    @Test func aFailedSaveIsThrownAndLogged() throws {
        let logged = Mutex(0)
        let db = try TestStores.sworm(FixtureModels.library, logError: { _ in logged.withLock { $0 += 1 } })
        let id = UUID()
        // Two books with one id break the uniqueness constraint: the save fails, nothing is written.
        #expect(throws: (any Error).self) {
            try db.perform { ctx in
                try ctx.insert(Book(id: id, name: "one"))
                try ctx.insert(Book(id: id, name: "two"))
            }
        }
        #expect(logged.withLock { $0 } == 1)
        #expect(try db.perform { ctx in try ctx.count(of: Book.all) } == 0)
    }

    @Test func scheduleHonoursCancellation() async throws {
        let db = try TestStores.sworm(FixtureModels.library)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await db.schedule { ctx in
                try ctx.insert(Book(name: "never"))
                return true
            }
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(try db.perform { ctx in try ctx.count(of: Book.all) } == 0)
    }

    @Test func oneHundredThreadsAtOnce() throws {
        let db = try TestStores.sworm(FixtureModels.library)
        let errors = Mutex<[String]>([])
        let group = DispatchGroup()
        for year in 0..<100 {
            group.enter()
            let thread = Thread {
                defer { group.leave() }
                do {
                    try db.perform { ctx in
                        try ctx.insert(Book(name: "\(year)", year: year))
                        _ = try ctx.count(of: Book.all)
                    }
                } catch {
                    errors.withLock { $0.append("\(error)") }
                }
            }
            thread.start()
        }
        group.wait()
        #expect(errors.withLock { $0 } == [])
        let years = try db.perform { ctx in try ctx.fetch(Book.all.sort(\.year), \.year) }
        #expect(years == Array(0..<100))
    }

    @Test func oneHundredTasksAtOnce() async throws {
        let db = try TestStores.sworm(FixtureModels.library)
        try await withThrowingTaskGroup(of: Int.self) { group in
            for year in 0..<100 {
                group.addTask {
                    try await db.schedule { ctx in
                        try ctx.insert(Book(name: "\(year)", year: year))
                        return try ctx.count(of: Book.all)
                    }
                }
            }
            var counts: [Int] = []
            for try await count in group { counts.append(count) }
            // Each task saw its own insert, at least.
            #expect(counts.count == 100)
            #expect(counts.allSatisfy { $0 >= 1 })
        }
        let years = try await db.schedule { ctx in try ctx.fetch(Book.all.sort(\.year), \.year) }
        #expect(years == Array(0..<100))
    }

    @MainActor
    @Test func scheduleFromTheMainActor() async throws {
        let db = try TestStores.sworm(FixtureModels.library)
        try await db.schedule { ctx in try ctx.insert(Book(name: "main")) }
        let books: [Book] = try await db.schedule { ctx in try ctx.fetch(Book.all).map { try $0.decode() } }
        #expect(books.map(\.name) == ["main"])
    }
}
