import Foundation

/// The async sequences handed out for one source of events: each subscriber gets its own stream,
/// which ends when its task is cancelled or the source goes away.
///
/// It is `Sendable`: `continuations` is only touched while holding `lock`.
final class ChangeStreams<Element: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    /// Guarded by `lock`.
    private var continuations: [Int: AsyncStream<Element>.Continuation] = [:]
    /// Guarded by `lock`.
    private var nextKey = 0

    /// Whether anyone listens (so that events need not be built otherwise).
    var hasSubscribers: Bool { lock.withLock { !continuations.isEmpty } }

    /// A new stream of the events yielded from now on.
    func subscribe() -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream<Element>.makeStream(bufferingPolicy: .unbounded)
        let key = lock.withLock { () -> Int in
            nextKey += 1
            continuations[nextKey] = continuation
            return nextKey
        }
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            _ = self.lock.withLock { self.continuations.removeValue(forKey: key) }
        }
        return stream
    }

    /// Delivers an event to every stream.
    func yield(_ element: Element) {
        let targets = lock.withLock { Array(continuations.values) }
        for continuation in targets { continuation.yield(element) }
    }

    /// Ends every stream.
    func finish() {
        let targets = lock.withLock { () -> [AsyncStream<Element>.Continuation] in
            let all = Array(continuations.values)
            continuations = [:]
            return all
        }
        for continuation in targets { continuation.finish() }
    }

    deinit {
        for continuation in continuations.values { continuation.finish() }
    }
}
