import CDQIModel
import Foundation
import Testing

@testable import CDQIObjects
@testable import CDQISQLite
@testable import CDQIStore

/// Stores, contexts and raw SQL for the object and context tests.
enum ContextTestSupport {
    /// A coordinator on a new store file in a fresh folder, with the folder's clean-up.
    static func fileCoordinator(_ model: String) throws -> (PersistentStoreCoordinator, URL, () -> Void) {
        let (folder, cleanUp) = try StoreTestSupport.temporaryFolder()
        let url = folder.appendingPathComponent("\(model).sqlite")
        let coordinator = try PersistentStoreCoordinator(model: try StoreTestSupport.fixtureModel(model), url: url)
        return (coordinator, url, cleanUp)
    }

    /// A context on a new in-memory store.
    static func memoryContext(_ model: String) throws -> ManagedObjectContext {
        let coordinator = try PersistentStoreCoordinator(model: try StoreTestSupport.fixtureModel(model), url: nil)
        return ManagedObjectContext(coordinator: coordinator)
    }

    /// A context on a new in-memory Company store, and a maker of that store's permanent Employee IDs
    /// by primary key (rows need not exist).
    static func employeeIDs() throws -> (context: ManagedObjectContext, id: (Int64) -> ManagedObjectID) {
        let context = try memoryContext("Company")
        let entity = try #require(context.coordinator.layout.entity(named: "Employee"))
        let store = context.coordinator.storeIdentifier
        return (context, { ManagedObjectID(entity: EntityHandle(entity), store: StoreNumber(store), primaryKey: $0) })
    }

    /// Rows of a query, each column rendered as text (`NULL` for null, `x'…'` hex for blobs, and the
    /// storage class for REALs as `r:` prefix so that 1 and 1.0 differ).
    static func rows(_ coordinator: PersistentStoreCoordinator, _ sql: String) throws -> [[String]] {
        try coordinator.withStore { store in try rows(store.connection, sql) }
    }

    static func rows(_ connection: SQLiteConnection, _ sql: String) throws -> [[String]] {
        let statement = try connection.prepareUncached(sql)
        var rows: [[String]] = []
        while try statement.step() {
            var row: [String] = []
            for column in 0..<statement.columnCount {
                switch statement.storageClass(column) {
                case 1: row.append(String(statement.int64(column)))
                case 2: row.append("r:" + String(statement.double(column)))
                case 3: row.append(statement.string(column))
                case 4: row.append("x'" + statement.data(column).map { String(format: "%02X", $0) }.joined() + "'")
                default: row.append("NULL")
                }
            }
            rows.append(row)
        }
        return rows
    }

    /// Rows read through a separate connection to the file (what another process would see).
    static func rows(file url: URL, _ sql: String) throws -> [[String]] {
        let connection = try SQLiteConnection(path: url.path, mode: .readOnly)
        return try rows(connection, sql)
    }

    /// Inserts an object and sets its values.
    @discardableResult
    static func insert(_ context: ManagedObjectContext, _ entity: String, _ values: [String: Any?]) throws -> ManagedObject {
        let object = try context.insertNewObject(forEntityName: entity)
        for (key, value) in values.sorted(by: { $0.key < $1.key }) { try object.setValue(value, forKey: key) }
        return object
    }
}
