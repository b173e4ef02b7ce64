import Hummingbird
import Logging

/// Logs the errors a route throws that are not HTTP errors of its own (a store or query error), which
/// Hummingbird turns into a bare 500 and logs only at debug level.
struct ErrorLoggingMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as any HTTPResponseError {
            throw error
        } catch {
            context.logger.error("\(request.method) \(request.uri.path) failed: \(error)")
            throw error
        }
    }
}
