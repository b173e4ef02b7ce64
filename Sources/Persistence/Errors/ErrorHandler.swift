import Foundation

/// The error handler every Persistence call that fails reports to, where upstream logs
/// (`CHECK_LOG_ERROR`) and returns `nil`, `NO` or an empty result. The default writes the error's
/// description to standard error. Set it (as `Persistence.errorHandler = { … }`) to collect or
/// forward errors; a ``DAO`` or the ``DAOFactory`` may also have a handler of its own.
public var errorHandler: @Sendable (any Error) -> Void {
    get { ErrorHandlerStorage.shared.handler }
    set { ErrorHandlerStorage.shared.handler = newValue }
}

/// Writes an error to standard error, one line: the default ``errorHandler``.
public let standardErrorHandler: @Sendable (any Error) -> Void = { error in
    FileHandle.standardError.write(Data("\(error)\n".utf8))
}

/// The process-wide handler, behind a lock.
final class ErrorHandlerStorage: @unchecked Sendable {
    static let shared = ErrorHandlerStorage()

    private let lock = NSLock()
    /// Guarded by `lock`.
    private var current: @Sendable (any Error) -> Void = standardErrorHandler

    var handler: @Sendable (any Error) -> Void {
        get { lock.withLock { current } }
        set { lock.withLock { current = newValue } }
    }
}

/// Reports `error` to `local` when set, otherwise to the process-wide ``errorHandler``.
func report(_ error: any Error, to local: (@Sendable (any Error) -> Void)?) {
    (local ?? errorHandler)(error)
}
