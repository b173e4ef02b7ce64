import CDQIStore
import CompanyAPI
import Foundation
import Logging
import ServiceLifecycle

/// The example server on a loopback port, over a new store holding the sample data, for the length of
/// a closure; then shut down gracefully.
enum RunningServer {
    /// Runs `body` with the port of a server on `127.0.0.1` over a new store at `store`.
    static func with<T: Sendable>(store: URL, _ body: (Int) async throws -> T) async throws -> T {
        let container = try CompanyServer.openStore(at: store)
        try await SampleData.insert(into: container)
        let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
        let app = CompanyServer.application(container: container, port: 0, logLevel: .warning) { port in
            portContinuation.yield(port)
            portContinuation.finish()
        }
        let group = ServiceGroup(configuration: .init(services: [app], logger: Logger(label: "RunningServer")))
        return try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask {
                // A server that stops (or never starts) ends the wait for its port.
                defer { portContinuation.finish() }
                try await group.run()
            }
            var iterator = ports.makeAsyncIterator()
            guard let port = await iterator.next() else { throw ServerError.didNotStart }
            let result: Result<T, any Error>
            do {
                result = .success(try await body(port))
            } catch {
                result = .failure(error)
            }
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
            return try result.get()
        }
    }

    enum ServerError: Error {
        case didNotStart
    }
}
