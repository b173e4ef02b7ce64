// A child process for the PostgreSQL concurrency test (issue 22 item 4): one of several app servers
// saving conflicting changes to the same objects of one store.
//
//   cdqi-postgres-worker MODEL POSTGRES-URL POLICY WORKER ROUNDS GO-FILE
//
// It opens a coordinator on the URL with the merge policy POLICY (error, storeTrump, objectTrump,
// overwrite, rollback), prints "READY", and waits until the file GO-FILE exists, so that all workers
// start saving together. Then, for each round r in 1…ROUNDS, it fetches every Counter afresh, adds
// 10^WORKER to each one's `total`, sets its own attribute `w<WORKER>` to r, inserts one Entry, and
// saves. With the policy `error`, a save refused for a conflict prints "CONFLICT r" and the round
// runs again from a fresh fetch. Each acknowledged save prints, per counter,
//   ACK r NAME READ-VERSION SAVED-VERSION|lost READ-TOTAL READ-W0…READ-W3 TOTAL W0…W3
// (what the counter held when read, its version after the save, and its values after the save:
// "lost" when the merge policy dropped this worker's changes to it), then "INSERT r KEY" for the
// entry, and "DONE" at the end. Lines are written unbuffered, each with one write. If the test
// process dies first, the worker stops.
//
//   cdqi-postgres-worker batch-delete MODEL POSTGRES-URL FROM TO GO-FILE
//
// One of several app servers batch-deleting overlapping sets of departments (with their delete rules):
// it opens a coordinator, prints "READY", waits for GO-FILE, deletes every Department whose name lies
// between FROM and TO (inclusive), and prints "DELETED" followed by the keys of the departments it
// deleted, then "DONE".
import CDQIModel
import CDQIPostgres
import CDQIPredicate
import CDQIStore
import Foundation

func say(_ text: String) {
    let bytes = Array((text + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
}

func fail(_ text: String) -> Never {
    FileHandle.standardError.write(Data("cdqi-postgres-worker: \(text)\n".utf8))
    exit(1)
}

let policies: [String: MergePolicy] = [
    "error": .error, "storeTrump": .mergeByPropertyStoreTrump, "objectTrump": .mergeByPropertyObjectTrump,
    "overwrite": .overwrite, "rollback": .rollback,
]

/// An Integer 64 attribute's value.
func integer(_ object: ManagedObject, _ key: String) throws -> Int64 {
    guard let value = try object.value(forKey: key) as? Int64 else { fail("\(key) is not an Integer 64") }
    return value
}

/// Whether `error` is a save refused for conflicts.
func isConflict(_ error: any Error) -> Bool {
    if case ContextError.mergeConflicts = error { return true }
    return false
}

/// The worker's rounds (see the top of this file).
func run(arguments: [String]) throws {
    guard arguments.count == 7, let policy = policies[arguments[3]], let worker = Int(arguments[4]), (0..<4).contains(worker),
        let rounds = Int(arguments[5]), rounds > 0
    else {
        fail("usage: cdqi-postgres-worker MODEL POSTGRES-URL error|storeTrump|objectTrump|overwrite|rollback WORKER(0-3) ROUNDS GO-FILE")
    }
    let amount = [1, 10, 100, 1000][worker] as Int64
    let ownKey = "w\(worker)"
    let parent = getppid()
    let model = try ModelLoader().load(url: URL(fileURLWithPath: arguments[1])).model
    let coordinator = try PersistentStoreCoordinator(model: model, postgresURL: arguments[2], connections: 2)
    let context = ManagedObjectContext(coordinator: coordinator)
    context.mergePolicy = policy
    say("READY")
    while !FileManager.default.fileExists(atPath: arguments[6]) {
        guard getppid() == parent else { exit(2) }
        usleep(1000)
    }
    var request = FetchRequest(entityName: "Counter")
    request.sortDescriptors = [FetchSortDescriptor(keyPath: "name")]
    var random = SystemRandomNumberGenerator()
    for round in 1...rounds {
        var attempts = 0
        while true {
            guard getppid() == parent else { exit(2) }
            attempts += 1
            guard attempts <= 1000 else { fail("round \(round) met a conflict 1000 times") }
            context.reset()
            var read: [(object: ManagedObject, version: Int64, values: [Int64])] = []
            for counter in try context.fetch(request) {
                let values = try ["total", "w0", "w1", "w2", "w3"].map { try integer(counter, $0) }
                read.append((counter, counter.rowVersion ?? 0, values))
                try counter.setValue(values[0] + amount, forKey: "total")
                try counter.setValue(Int64(round), forKey: ownKey)
            }
            let entry = try context.insertNewObject(forEntityName: "Entry")
            try entry.setValue("w\(worker) r\(round)", forKey: "name")
            // A pause between reading and saving, so that the workers' saves interleave.
            usleep(UInt32.random(in: 0..<8000, using: &random))
            do {
                try context.save()
            } catch {
                guard policy == .error, isConflict(error) else { throw error }
                say("CONFLICT \(round)")
                continue
            }
            for (object, version, values) in read {
                let saved = try ["total", "w0", "w1", "w2", "w3"].map { try integer(object, $0) }
                let lost = try integer(object, ownKey) != Int64(round)
                let name = try object.value(forKey: "name") as? String ?? "?"
                let columns = [String(version), lost ? "lost" : String(object.rowVersion ?? 0)] + (values + saved).map(String.init)
                say("ACK \(round) \(name) " + columns.joined(separator: " "))
            }
            guard let key = entry.objectID.primaryKey else { fail("the saved entry has no key") }
            say("INSERT \(round) \(key)")
            break
        }
    }
    say("DONE")
}

/// The batch-delete worker (see the top of this file).
func runBatchDelete(arguments: [String]) throws {
    guard arguments.count == 7 else { fail("usage: cdqi-postgres-worker batch-delete MODEL POSTGRES-URL FROM TO GO-FILE") }
    let parent = getppid()
    let model = try ModelLoader().load(url: URL(fileURLWithPath: arguments[2])).model
    let coordinator = try PersistentStoreCoordinator(model: model, postgresURL: arguments[3], connections: 2)
    let context = ManagedObjectContext(coordinator: coordinator)
    say("READY")
    while !FileManager.default.fileExists(atPath: arguments[6]) {
        guard getppid() == parent else { exit(2) }
        usleep(1000)
    }
    var request = BatchDeleteRequest(
        fetchRequest: FetchRequest(
            entityName: "Department", predicate: try PredicateNode(format: "name >= %@ AND name <= %@", argumentArray: [arguments[4], arguments[5]])))
    request.resultType = .objectIDs
    guard case .objectIDs(let ids) = try context.execute(request) else { fail("the batch delete returned no object IDs") }
    say((["DELETED"] + ids.compactMap(\.primaryKey).map(String.init)).joined(separator: " "))
    say("DONE")
}

do {
    if CommandLine.arguments.count > 1 && CommandLine.arguments[1] == "batch-delete" {
        try runBatchDelete(arguments: CommandLine.arguments)
    } else {
        try run(arguments: CommandLine.arguments)
    }
} catch {
    fail("\(error)")
}
