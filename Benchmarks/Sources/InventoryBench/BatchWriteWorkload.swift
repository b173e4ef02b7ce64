import CDQIPredicate
import CDQIStore
import CSQLiteRaw
import Foundation

/// W14: a batch delete and a batch update of every item (100k at full size) through
/// `context.execute(_:)`, against the hand-written SQL on the C API that writes the same rows as Core
/// Data's rules require, each in one transaction on a fresh copy of the same store, timed in one run.
///
/// The delete's hand-written side applies Item's delete rules set-wise: its parts (Cascade) are deleted
/// and its categories' versions grow (Nullify of a to-one whose inverse is a to-many), then the items go.
/// The update sets `quantity` and `price = price * 1.1` and adds one to `Z_OPT`.
public enum BatchWriteWorkload {
    /// The lines' id for `--only`.
    public static let id = "W14"

    /// The two workloads: delete, then update.
    public static func workloads(suite: BenchmarkSuite) throws -> [Workload] {
        let fixture = suite.fixture
        let label = suite.sizes.label.items
        let template = try fixture.makePopulatedStore(named: "batch-template.sqlite", itemCount: suite.sizes.items, withParts: false)
        /// A fresh copy of the populated store for one run.
        func freshCopy(_ name: String) throws -> URL {
            let url = fixture.folder.appendingPathComponent(name)
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
            try FileManager.default.copyItem(at: template, to: url)
            return url
        }
        var context: ManagedObjectContext?
        var raw: RawSQLite?
        let everyItem = try PredicateNode(format: "price >= %@", 0.0)
        // Each round starts from a fresh copy of the populated store, for both requests.
        let prepareOurs = {
            context = nil
            let coordinator = try PersistentStoreCoordinator(model: fixture.model, url: try freshCopy("ours-batch.sqlite"))
            context = ManagedObjectContext(coordinator: coordinator)
        }
        let prepareRaw = {
            raw = nil
            raw = try RawSQLite(path: try freshCopy("raw-batch.sqlite").path)
        }

        let oursDelete = Contender(
            .ours,
            prepare: prepareOurs,
            run: {
                guard let context else { return 0 }
                var request = BatchDeleteRequest(fetchRequest: FetchRequest(entityName: "Item", predicate: everyItem))
                request.resultType = .count
                guard case .count(let count) = try context.execute(request) else { return -1 }
                return count
            })
        let rawDelete = Contender(
            .raw,
            prepare: prepareRaw,
            run: {
                guard let db = raw else { return 0 }
                try db.exec("BEGIN IMMEDIATE")
                for sql in [
                    "UPDATE ZCATEGORY SET Z_OPT = Z_OPT + 1 WHERE Z_PK IN (SELECT ZCATEGORY FROM ZITEM WHERE ZPRICE >= ?)",
                    "DELETE FROM ZPART WHERE ZITEM IN (SELECT Z_PK FROM ZITEM WHERE ZPRICE >= ?)",
                ] {
                    let statement = try db.prepare(sql)
                    sqlite3_bind_double(statement.handle, 1, 0)
                    try db.check(sqlite3_step(statement.handle))
                }
                let delete = try db.prepare("DELETE FROM ZITEM WHERE ZPRICE >= ?")
                sqlite3_bind_double(delete.handle, 1, 0)
                try db.check(sqlite3_step(delete.handle))
                let count = Int(sqlite3_changes(db.db))
                try db.exec("COMMIT")
                return count
            })

        let oursUpdate = Contender(
            .ours,
            prepare: prepareOurs,
            run: {
                guard let context else { return 0 }
                var request = BatchUpdateRequest(
                    entityName: "Item", predicate: everyItem,
                    propertiesToUpdate: ["quantity": .value(7), "price": .expression(try ExpressionNode(format: "price * 1.1"))])
                request.resultType = .count
                guard case .count(let count) = try context.execute(request) else { return -1 }
                return count
            })
        let rawUpdate = Contender(
            .raw,
            prepare: prepareRaw,
            run: {
                guard let db = raw else { return 0 }
                try db.exec("BEGIN IMMEDIATE")
                let update = try db.prepare("UPDATE ZITEM SET ZPRICE = ZPRICE * ?, ZQUANTITY = ?, Z_OPT = Z_OPT + 1 WHERE ZPRICE >= ?")
                sqlite3_bind_double(update.handle, 1, 1.1)
                sqlite3_bind_int64(update.handle, 2, 7)
                sqlite3_bind_double(update.handle, 3, 0)
                try db.check(sqlite3_step(update.handle))
                let count = Int(sqlite3_changes(db.db))
                try db.exec("COMMIT")
                return count
            })

        return [
            Workload(
                id: id, label: "batch delete \(label)", handWrittenLabel: "hand-written SQL",
                note: "ours: context.execute(BatchDeleteRequest) with Item's rules (parts Cascade, category Nullify) "
                    + "as temporary triggers; raw: the same rules as set-wise UPDATE/DELETE, then DELETE",
                contenders: [oursDelete, rawDelete]),
            Workload(
                id: id, label: "batch update \(label)", handWrittenLabel: "hand-written SQL",
                note: "ours: context.execute(BatchUpdateRequest) quantity = 7, price = price * 1.1; raw: one UPDATE",
                contenders: [oursUpdate, rawUpdate]),
        ]
    }
}
