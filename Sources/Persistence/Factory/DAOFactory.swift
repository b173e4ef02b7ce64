import CDQIModel
import CDQIStore
import Foundation

/// The process-wide factory of DAOs and owner of the Core Data stack.
///
/// Configure it once, before the first use (Linux has no app bundle to merge models from and no
/// Documents folder, hence ``setModel(_:)`` and ``setDocumentsDirectory(_:)``):
///
/// ```swift
/// DAOFactory.setModelURL(URL(fileURLWithPath: "Model.xcdatamodeld"))
/// DAOFactory.setStorePath("test.sqlite")
/// DAOFactory.setStoreType(NSSQLiteStoreType)
/// let dao = DAOFactory.factory().createRuntimeDAO("EntityName")
/// ```
///
/// The stack opens on first access. Failures are reported to the factory's ``errorHandler`` (or the
/// process-wide ``Persistence/errorHandler``) and the accessors answer `nil`, as upstream; each has a
/// throwing `try…` twin.
open class DAOFactory: @unchecked Sendable {
    private static let shared = DAOFactory()

    private let lock = NSLock()
    /// Guarded by `lock`: the stack, once opened.
    private var stack: PersistenceStack?
    /// Guarded by `lock`: where this factory reports errors (`nil`: the process-wide handler).
    private var localErrorHandler: (@Sendable (any Error) -> Void)?

    /// A factory with a stack of its own, for subclasses that add factory methods for custom DAOs
    /// (upstream's `-init` answered the shared instance; Swift initializers cannot). Every factory reads
    /// the same static configuration; use ``factory()`` unless you subclass.
    public init() {}

    /// The shared factory.
    open class func factory() -> DAOFactory {
        shared
    }

    // MARK: Static configuration

    /// The store file: a name relative to the documents directory, or an absolute path.
    public class func setStorePath(_ path: String?) { FactoryConfiguration.shared.storePath = path }
    /// The store file set by ``setStorePath(_:)``.
    public class func storePath() -> String? { FactoryConfiguration.shared.storePath }
    /// The store type: ``NSSQLiteStoreType`` (the default, also for `nil`) or ``NSInMemoryStoreType``;
    /// any other type is reported as ``PersistenceError/unsupportedStoreType(_:)`` when the stack opens.
    public class func setStoreType(_ type: String?) { FactoryConfiguration.shared.storeType = type }
    /// The store type set by ``setStoreType(_:)`` (`nil` when none was set: SQLite).
    public class func storeType() -> String? { FactoryConfiguration.shared.storeType }
    /// The store options. Accepted for source compatibility; this store has no options, so they change nothing.
    public class func setStoreOptions(_ options: [String: Any]?) { FactoryConfiguration.shared.storeOptions = options }
    /// The store options set by ``setStoreOptions(_:)``.
    public class func storeOptions() -> [String: Any]? { FactoryConfiguration.shared.storeOptions }
    /// The model (Linux addition; required before the first use unless ``setModelURL(_:)`` is).
    public class func setModel(_ model: ManagedObjectModel?) { FactoryConfiguration.shared.model = model }
    /// The model file (`.xcdatamodeld`, `.xcdatamodel` or `contents`) to load on first use (Linux addition).
    public class func setModelURL(_ url: URL?) { FactoryConfiguration.shared.modelURL = url }
    /// The directory relative store paths are in (Linux addition; default: the current directory).
    public class func setDocumentsDirectory(_ url: URL?) { FactoryConfiguration.shared.documentsDirectory = url }
    /// The "prefilled database" copied to the store's place when the store file is missing (Linux
    /// addition: upstream copies a same-named resource of the app bundle).
    public class func setSeedStoreURL(_ url: URL?) { FactoryConfiguration.shared.seedStoreURL = url }

    // MARK: The stack

    /// Where this factory reports errors; `nil` (the default) reports to ``Persistence/errorHandler``.
    public var errorHandler: (@Sendable (any Error) -> Void)? {
        get { lock.withLock { localErrorHandler } }
        set { lock.withLock { localErrorHandler = newValue } }
    }

    /// The directory the store file is in: the one set, or the current directory.
    open func applicationDocumentsDirectory() -> String {
        documentsDirectoryURL().path
    }

    private func documentsDirectoryURL() -> URL {
        FactoryConfiguration.shared.documentsDirectory
            ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
    }

    /// The stack, opened on first use.
    private func openedStack() throws(PersistenceError) -> PersistenceStack {
        lock.lock()
        defer { lock.unlock() }
        if let stack { return stack }
        let opened = try PersistenceStack.open(FactoryConfiguration.shared, documentsDirectory: documentsDirectoryURL())
        stack = opened
        return opened
    }

    private func reporting<T>(_ body: () throws(PersistenceError) -> T) -> T? {
        do {
            return try body()
        } catch {
            report(error, to: errorHandler)
            return nil
        }
    }

    /// The model; `nil` (after reporting) when the stack cannot open.
    public var managedObjectModel: ManagedObjectModel! { reporting { () throws(PersistenceError) in try openedStack().model } }

    /// The coordinator; `nil` (after reporting) when the stack cannot open.
    public var persistentStoreCoordinator: PersistentStoreCoordinator! {
        reporting { () throws(PersistenceError) in try openedStack().container.coordinator }
    }

    /// The context DAOs are made in; `nil` (after reporting) when the stack cannot open. Setting it is
    /// ``registerManagedObjectContext(_:)``.
    public var managedObjectContext: ManagedObjectContext! {
        get { reporting { () throws(PersistenceError) in try openedStack().context } }
        set { if let newValue { registerManagedObjectContext(newValue) } }
    }

    /// The model, throwing when the stack cannot open.
    public func tryManagedObjectModel() throws(PersistenceError) -> ManagedObjectModel { try openedStack().model }
    /// The coordinator, throwing when the stack cannot open.
    public func tryPersistentStoreCoordinator() throws(PersistenceError) -> PersistentStoreCoordinator {
        try openedStack().container.coordinator
    }
    /// The context, throwing when the stack cannot open.
    public func tryManagedObjectContext() throws(PersistenceError) -> ManagedObjectContext { try openedStack().context }

    /// Makes `context` the factory's context: the DAOs made from now on work in it. The stack opens
    /// first, if it has not, so that the model and coordinator are there too.
    open func registerManagedObjectContext(_ context: ManagedObjectContext) {
        guard reporting({ () throws(PersistenceError) in try openedStack() }) != nil else { return }
        lock.withLock { stack?.context = context }
    }

    /// Closes the stack: the next access opens it again with the configuration then set (Linux
    /// addition, for tools and tests that switch stores; objects of the old context stay usable).
    open func closeStack() {
        lock.withLock { stack = nil }
    }

    // MARK: DAOs

    /// A new DAO of the subclass `daoType`, made with `init(context:)` in the factory's context;
    /// `nil` (after reporting) when the stack cannot open.
    open func newDAO<T: DAO>(_ daoType: T.Type) -> T! { reporting { () throws(PersistenceError) in try tryNewDAO(daoType) } }
    /// A new ``RuntimeDAO`` of `entityName`.
    open func newRuntimeDAO(_ entityName: String?) -> DAO! {
        reporting { () throws(PersistenceError) in try tryCreateDAO(entityName) }
    }
    /// A new ``RuntimeDAO`` of `entityName` (the same as ``newRuntimeDAO(_:)``).
    open func createDAO(_ entityName: String?) -> DAO! { newRuntimeDAO(entityName) }
    /// A new ``RuntimeDAO`` of `entityName`: the seed text's spelling of ``createDAO(_:)``.
    open func createRuntimeDAO(_ entityName: String?) -> DAO! { newRuntimeDAO(entityName) }

    /// ``newDAO(_:)``, throwing when the stack cannot open.
    public func tryNewDAO<T: DAO>(_ daoType: T.Type) throws(PersistenceError) -> T {
        daoType.init(context: try openedStack().context)
    }

    /// ``createDAO(_:)``, throwing when the stack cannot open.
    public func tryCreateDAO(_ entityName: String?) throws(PersistenceError) -> DAO {
        RuntimeDAO(contextAndEntityName: try openedStack().context, entityName: entityName)
    }

    // MARK: Saving

    /// Saves the context; `false` (after reporting) on failure.
    @discardableResult
    open func save() -> Bool {
        do {
            try trySave()
            return true
        } catch {
            report(error, to: errorHandler)
            return false
        }
    }

    /// Saves the context; on failure sets `error` (and reports it) and answers `false`.
    @discardableResult
    open func save(_ error: inout (any Error)?) -> Bool {
        do {
            try trySave()
            error = nil
            return true
        } catch let failure {
            error = failure
            report(failure, to: errorHandler)
            return false
        }
    }

    /// Saves the context, throwing on failure (the stack's or the save's error, as a ``PersistenceError``).
    public func trySave() throws(PersistenceError) {
        let context = try openedStack().context
        do {
            _ = try context.save()
        } catch {
            throw .store(error)
        }
    }

    /// Discards the context's objects and changes.
    open func reset() { managedObjectContext?.reset() }
    /// Discards the context's unsaved changes.
    open func rollback() { managedObjectContext?.rollback() }
    /// Not supported (the store has no undo manager): reports ``PersistenceError/undoNotSupported``.
    open func undo() { report(PersistenceError.undoNotSupported, to: errorHandler) }
    /// Not supported (the store has no undo manager): reports ``PersistenceError/undoNotSupported``.
    open func redo() { report(PersistenceError.undoNotSupported, to: errorHandler) }
}
