import CDQIStore

/// The wait-fetch cycle both live queries share (``LiveQuery`` and ``ContextLiveQuery``): before the
/// first fetch nothing is awaited; afterwards, each fetch waits for the signal to wake it. The cycle ends
/// when the iterating task is cancelled, the signal's sources end, or a fetch fails.
struct LiveQueryCycle {
    let signal: LiveQuerySignal
    private var wakeUps: AsyncStream<Void>.Iterator
    /// The state of the last fetch (`nil` before the first).
    var state: (any Sendable)?
    private var finished = false

    init(signal: LiveQuerySignal) {
        self.signal = signal
        wakeUps = signal.wakeUps.makeAsyncIterator()
    }

    /// Waits until the next fetch is due (at once for the first) and returns the objects changed since
    /// the previous one; `nil` once the cycle has ended.
    mutating func nextFetch(isolation actor: isolated (any Actor)?) async -> Set<ManagedObjectID>? {
        guard !finished, !Task.isCancelled else { return end() }
        if state != nil {
            guard await wakeUps.next(isolation: actor) != nil, !Task.isCancelled else { return end() }
        }
        return signal.takeUpdated()
    }

    /// Ends the cycle after a failed fetch: `error` is passed on, and later calls return `nil`.
    mutating func fail(_ error: QueryError) -> QueryError {
        finished = true
        return error
    }

    private mutating func end() -> Set<ManagedObjectID>? {
        finished = true
        return nil
    }
}
