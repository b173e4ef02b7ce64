// A child process for the crash test: saves batches of Employee objects to a store, one save per
// batch, and writes "ACK <batch>" to standard output (unbuffered) only after a save has returned
// ("READY" first, once the store is open).
// The test kills it with SIGKILL at a random moment and checks the store. If the test process dies
// first (a crash elsewhere in the suite), the writer stops on its own rather than run forever.
// With a fourth argument `batch`, each batch is followed by a batch update (the batch's salaries become
// negative) and a batch delete (its employees e0…e4) before it is acknowledged. With the argument
// `journal`, the store is kept in rollback-journal mode (DELETE) instead of WAL.
import CDQIModel
import CDQIPredicate
import CDQIStore
import Foundation

let arguments = CommandLine.arguments
let options = Set(arguments.dropFirst(4))
guard arguments.count >= 4, options.isSubset(of: ["batch", "journal"]), let first = Int(arguments[3]) else {
    FileHandle.standardError.write(Data("usage: cdqi-crash-writer MODEL STORE FIRST-BATCH [batch] [journal]\n".utf8))
    exit(64)
}
do {
    let model = try ModelLoader().load(url: URL(fileURLWithPath: arguments[1])).model
    let storeURL = URL(fileURLWithPath: arguments[2])
    let journal = options.contains("journal")
    if journal {
        // Create the store when missing (in WAL, as every new store), then switch the file to a
        // rollback journal; the coordinator below keeps that mode.
        _ = try PersistentStoreCoordinator(model: model, url: storeURL, readerCount: 0, keepsJournalMode: true)
        try SQLiteConnection(path: storeURL.path).execute("PRAGMA journal_mode = DELETE")
    }
    let coordinator = try PersistentStoreCoordinator(
        model: model, url: storeURL, readerCount: journal ? 0 : PersistentStoreCoordinator.defaultReaderCount,
        keepsJournalMode: journal)
    let context = ManagedObjectContext(coordinator: coordinator)
    let batchSize = 25
    var batch = first
    let parent = getppid()
    // Opened: the test's random kill delay starts now, so a slow start (a loaded machine, a sanitizer
    // build) does not use it all up before the first save.
    let ready = Array("READY\n".utf8)
    _ = ready.withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
    while getppid() == parent {
        let department = try context.insertNewObject(forEntityName: "Department")
        try department.setValue("batch \(batch)", forKey: "name")
        for index in 0..<batchSize {
            let employee = try context.insertNewObject(forEntityName: "Employee")
            try employee.setValue("e\(index)", forKey: "firstName")
            try employee.setValue("batch \(batch)", forKey: "lastName")
            try employee.setValue(Int32(batch), forKey: "salary")
            try employee.setValue(String(repeating: "x", count: (batch * 37 + index) % 3000), forKey: "nickName")
            try employee.setValue(department, forKey: "department")
        }
        try context.save()
        context.reset()
        if options.contains("batch") {
            _ = try context.execute(
                BatchUpdateRequest(
                    entityName: "Employee", predicate: try PredicateNode(format: "lastName == %@", "batch \(batch)"),
                    propertiesToUpdate: ["salary": .value(Int32(-batch))]))
            _ = try context.execute(
                BatchDeleteRequest(
                    fetchRequest: FetchRequest(
                        entityName: "Employee",
                        predicate: try PredicateNode(format: "lastName == %@ AND firstName IN %@", "batch \(batch)", ["e0", "e1", "e2", "e3", "e4"]))))
        }
        let line = Array("ACK \(batch)\n".utf8)
        _ = line.withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
        batch += 1
    }
} catch {
    FileHandle.standardError.write(Data("cdqi-crash-writer: \(error)\n".utf8))
    exit(1)
}
