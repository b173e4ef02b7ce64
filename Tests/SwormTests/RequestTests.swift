import Foundation
import Sworm
import Testing

/// Requests (`where` replaces, `sort` appends, `limit`, `offset`) and the context's operations.
@Suite struct RequestTests {
    /// Ten books named "0"…"9", published in year `index % 2`.
    private func library() throws -> PersistentContainer {
        let db = try TestStores.sworm(FixtureModels.library)
        try db.perform { ctx in
            for index in 0..<10 { try ctx.insert(BookLibrary.Book(name: "\(index)", year: index % 2)) }
        }
        return db
    }

    /// Five ABCD rows, a = 10, 30, 50, 70, 90.
    private func abcd() throws -> PersistentContainer {
        let db = try TestStores.sworm(FixtureModels.predicates)
        try db.perform { ctx in
            for a in [10, 30, 50, 70, 90] { try ctx.insert(PredicateABCD(a: a, b: a + 10)) }
        }
        return db
    }

    @Test func sortAppendsAndLimitOffsetWindow() throws {
        let db = try library()
        // By year (evens, then odds), then name: 0 2 4 6 8 1 3 5 7 9; skip one, take eight.
        let names = try db.perform { ctx in
            try ctx.fetch(BookLibrary.Book.all.sort(\.year).sort(\.name).limit(8).offset(1), \.name)
        }
        #expect(names == ["2", "4", "6", "8", "1", "3", "5", "7"])
        let descending = try db.perform { ctx in
            try ctx.fetch(BookLibrary.Book.all.sort(\.year, ascending: false).sort(\.name, ascending: false).limit(3), \.name)
        }
        #expect(descending == ["9", "7", "5"])
    }

    @Test func whereReplacesThePreviousPredicate() throws {
        let db = try abcd()
        let a = try db.perform { ctx in
            try ctx.fetch(PredicateABCD.all.where(\PredicateABCD.a == 10).where(\PredicateABCD.a == 50), \.a)
        }
        #expect(a == [50])
        let raw = try db.perform { ctx in
            try ctx.fetch(PredicateABCD.all.where(raw: "a > %@ AND b < %@", 20, 70).sort(\.a), \.a)
        }
        #expect(raw == [30, 50])
    }

    @Test func countFetchOneAndOptionalAttributes() throws {
        let db = try abcd()
        #expect(try db.perform { ctx in try ctx.count(of: PredicateABCD.all.where(\PredicateABCD.a > 40)) } == 3)
        #expect(try db.perform { ctx in try ctx.count(of: PredicateABCD.all) } == 5)
        let first = try db.perform { ctx in try ctx.fetchOne(PredicateABCD.all.sort(\.a, ascending: false))?.decode() }
        #expect(first == PredicateABCD(a: 90, b: 100))
        #expect(try db.perform { ctx in try ctx.fetchOne(PredicateABCD.all.sort(\.a), \.b) } == 20)
        #expect(try db.perform { ctx in try ctx.fetchOne(PredicateABCD.all.where(\PredicateABCD.a > 100), \.b) } == nil)
        try db.perform { ctx in
            try ctx.fetchOne(PredicateABCD.all.where(\PredicateABCD.a == 30))?.encode(\.c, "thirty")
        }
        #expect(try db.perform { ctx in try ctx.fetch(PredicateABCD.all.sort(\.a), \.c) } == [nil, "thirty", nil, nil, nil])
        #expect(try db.perform { ctx in try ctx.fetchOne(PredicateABCD.all.sort(\.a), \.c) } == nil)
        #expect(try db.perform { ctx in try ctx.fetchOne(PredicateABCD.all.sort(\.c, ascending: false), \.c) } == "thirty")
    }

    @Test func fetchesSeeUnsavedInsertsAndCountsToo() throws {
        let db = try abcd()
        let (count, all) = try db.perform { ctx in
            try ctx.insert(PredicateABCD(a: 1))
            return (try ctx.count(of: PredicateABCD.all), try ctx.fetch(PredicateABCD.all.sort(\.a)).map { try $0.decode(\.a) })
        }
        #expect(count == 6)
        #expect(all == [1, 10, 30, 50, 70, 90])
    }

    @Test func deleteObjectsAndRequests() throws {
        let db = try abcd()
        try db.perform { ctx in
            let object = try #require(try ctx.fetchOne(PredicateABCD.all.where(\PredicateABCD.a == 10)))
            ctx.delete(object)
        }
        #expect(try db.perform { ctx in try ctx.fetch(PredicateABCD.all.sort(\.a), \.a) } == [30, 50, 70, 90])
        try db.perform { ctx in try ctx.delete(PredicateABCD.all.where(\PredicateABCD.a >= 70)) }
        #expect(try db.perform { ctx in try ctx.fetch(PredicateABCD.all.sort(\.a), \.a) } == [30, 50])
    }

    @Test func batchDeleteReturnsTheCount() throws {
        let db = try abcd()
        let deleted = try db.perform { ctx in try ctx.batchDelete(PredicateABCD.all.where(\PredicateABCD.a < 50)) }
        #expect(deleted == 2)
        #expect(try db.perform { ctx in try ctx.count(of: PredicateABCD.all) } == 3)
        #expect(try db.perform { ctx in try ctx.batchDelete(PredicateABCD.all.where(\PredicateABCD.a < 50)) } == 0)
    }

    /// As upstream's `NSBatchDeleteRequest`: written in the store at once (a later failure of the same
    /// `perform` does not bring the rows back), on saved rows only (an object inserted in the same
    /// `perform` is neither counted nor deleted).
    @Test func batchDeleteRunsInTheStoreAtOnce() throws {
        let db = try abcd()
        struct Stop: Error {}
        #expect(throws: Stop.self) {
            try db.perform { ctx in
                #expect(try ctx.batchDelete(PredicateABCD.all.where(\PredicateABCD.a >= 70)) == 2)
                throw Stop()
            }
        }
        // 70 and 90 are gone although the perform threw; 10, 30, 50 stay.
        #expect(try db.perform { ctx in try ctx.fetch(PredicateABCD.all.sort(\.a), \.a) } == [10, 30, 50])
        let deleted = try db.perform { ctx in
            try ctx.insert(PredicateABCD(a: 5, b: 15))
            return try ctx.batchDelete(PredicateABCD.all.where(\PredicateABCD.a < 20))
        }
        // 10 was deleted in the store; 5 was not saved yet when the batch ran, and is saved by the perform.
        #expect(deleted == 1)
        #expect(try db.perform { ctx in try ctx.fetch(PredicateABCD.all.sort(\.a), \.a) } == [5, 30, 50])
    }

    @Test func unknownEntityIsATypedError() throws {
        let db = try abcd()
        #expect(throws: ManagedObjectContext.Error.unknownEntity("Nope")) {
            try db.perform { ctx in try ctx.insert(Nope()) }
        }
        #expect(throws: (any Error).self) { try db.perform { ctx in try ctx.count(of: Nope.all) } }
    }

    @Test func unmappedKeyPathsAndBadRawPredicatesThrowWhenRun() throws {
        struct Partial: ManagedObjectConvertible {
            var a: Int = 0
            var b: Int = 0
            static let entityName = "ABCD"
            static let attributes: Set<Attribute<Partial>> = [.init(\.a, "a")]
            static let relations: Void = ()
        }
        let db = try abcd()
        let unmapped = [
            Partial.all.where(\Partial.b == 1),
            Partial.all.where(\Partial.a == 1 || !(\Partial.b > 1)),
            Partial.all.sort(\.b),
        ]
        for request in unmapped {
            let error = #expect(throws: RequestError.self) { try db.perform { ctx in try ctx.fetch(request) } }
            guard case .unmappedKeyPath(let entity, _)? = error else {
                Issue.record("\(String(describing: error))")
                continue
            }
            #expect(entity == "ABCD")
        }
        #expect(throws: RequestError.self) { try db.perform { ctx in try ctx.fetch(Partial.all, \.b) } }
        #expect(throws: RequestError.self) { try db.perform { ctx in try ctx.fetchOne(Partial.all)?.decode(\.b) } }
        let invalid = #expect(throws: RequestError.self) {
            try db.perform { ctx in try ctx.fetch(PredicateABCD.all.where(raw: "a ==")) }
        }
        guard case .invalidPredicate(let query, _)? = invalid else {
            Issue.record("\(String(describing: invalid))")
            return
        }
        #expect(query == "a ==")
    }
}
