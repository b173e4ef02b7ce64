// libFuzzer targets for the inputs of the store commands (issue 15, finding 9, tier B): the model
// loader, the JSON import reader, and opening and reading a store file. One binary; the target is
// chosen by CDQI_FUZZ_TARGET (model, json or store; default json). Any crash, hang or leak is a bug:
// every input must end in a result or a typed error.
import CDQIInterchange
import CDQIModel
import CDQIStore
import Foundation

/// A scratch folder for the inputs that the loaders read from files.
private let scratch: URL = {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("cdqi-fuzz-\(getpid())")
    try? FileManager.default.createDirectory(at: url.appendingPathComponent("M.xcdatamodel"), withIntermediateDirectories: true)
    return url
}()

/// The Company fixture model, for the JSON reader and the store.
private let company: ManagedObjectModel? = {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/Company.xcdatamodeld")
    return try? ModelLoader().load(url: url).model
}()

private let target = ProcessInfo.processInfo.environment["CDQI_FUZZ_TARGET"] ?? "json"

@_cdecl("LLVMFuzzerTestOneInput")
public func storeFuzzerTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    switch target {
    case "model":
        // The bytes as a model's `contents`, loaded as cdqi loads it.
        let contents = scratch.appendingPathComponent("M.xcdatamodel/contents")
        guard (try? bytes.write(to: contents)) != nil else { return 0 }
        _ = try? ModelLoader().load(url: scratch.appendingPathComponent("M.xcdatamodel"))
    case "store":
        // The bytes as a store file, opened read-only and read through a context, then checked.
        guard let company else { return 0 }
        let store = scratch.appendingPathComponent("store.sqlite")
        for suffix in ["", "-wal", "-shm"] { unlink(store.path + suffix) }
        guard (try? bytes.write(to: store)) != nil else { return 0 }
        if let coordinator = try? PersistentStoreCoordinator(model: company, url: store, readOnly: true) {
            let context = ManagedObjectContext(coordinator: coordinator)
            for entity in ["Department", "Employee"] {
                for object in (try? context.fetch(FetchRequest(entityName: entity))) ?? [] {
                    _ = try? object.storedValue(forKey: entity == "Employee" ? "lastName" : "name")
                }
            }
        }
        _ = try? StoreChecker(model: company).check(store)
    default:
        // The bytes as an import document, read and checked against the model (no store written).
        guard let company else { return 0 }
        _ = try? StoreImporter(model: company).check(bytes)
    }
    return 0
}
