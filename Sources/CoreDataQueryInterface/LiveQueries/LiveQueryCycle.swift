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

    /// Waits until the next fetch is due (at once for the first) and returns what changed since the
    /// previous one; `nil` once the cycle has ended.
    mutating func nextFetch(isolation actor: isolated (any Actor)?) async -> LiveQueryChanges? {
        guard !finished, !Task.isCancelled else { return end() }
        if state != nil {
            guard await wakeUps.next(isolation: actor) != nil, !Task.isCancelled else { return end() }
        }
        return signal.takeChanges()
    }

    /// Ends the cycle after a failed fetch: `error` is passed on, and later calls return `nil`.
    mutating func fail(_ error: QueryError) -> QueryError {
        finished = true
        return error
    }

    private mutating func end() -> LiveQueryChanges? {
        finished = true
        return nil
    }
}
