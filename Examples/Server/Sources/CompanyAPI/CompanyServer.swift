import CDQIModel
import CDQIStore
import Foundation
import Hummingbird
import Logging

/// Opens (or creates) the Company store at `url` and builds the server over it.
public enum CompanyServer {
    /// The Company model, as the build plugin generated it from `Company.xcdatamodeld`.
    public static var model: ManagedObjectModel { CompanyModel.model }

    /// The container of the Company store at `url`, its model the one the build plugin generated.
    public static func openStore(at url: URL) throws -> PersistentContainer {
        try PersistentContainer(model: CompanyModel.self, url: url)
    }

    /// The Hummingbird application serving ``CompanyRoutes`` on `host`:`port` (port 0 picks a free
    /// one); `onServerRunning` gets the port actually bound once the server accepts connections.
    public static func application(
        container: PersistentContainer, host: String = "127.0.0.1", port: Int,
        logLevel: Logger.Level = .info,
        onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        var logger = Logger(label: "CompanyServer")
        logger.logLevel = logLevel
        return Application(
            router: CompanyRoutes(container: container).router(),
            configuration: .init(address: .hostname(host, port: port), serverName: "CompanyServer"),
            onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? port) },
            logger: logger
        )
    }
}
