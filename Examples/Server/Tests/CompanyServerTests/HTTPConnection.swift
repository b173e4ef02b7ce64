import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// One response: its status code and body.
struct HTTPResult: Sendable {
    var status: Int
    var body: Data
}

/// What went wrong on a connection, beyond an HTTP status.
enum HTTPConnectionError: Error, CustomStringConvertible {
    case closedBeforeResponse(String)
    case bodyBeforeHead(String)

    var description: String {
        switch self {
        case .closedBeforeResponse(let request): "the server closed the connection before answering \(request)"
        case .bodyBeforeHead(let request): "the answer to \(request) had body or end before its head"
        }
    }
}

/// A minimal HTTP/1.1 client over one keep-alive connection (SwiftNIO's HTTP codec), one request at a
/// time: each load-test client is one of these, as a browser or a service client would be.
struct HTTPConnection {
    private var responses: NIOAsyncChannelInboundStream<HTTPClientResponsePart>.AsyncIterator
    private let requests: NIOAsyncChannelOutboundWriter<HTTPClientRequestPart>

    /// Connects to `127.0.0.1:port`, runs `body` with the connection, and closes it.
    static func withConnection<T>(port: Int, _ body: (inout HTTPConnection) async throws -> T) async throws -> T {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    return try NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>(wrappingChannelSynchronously: channel)
                }
            }
        return try await channel.executeThenClose { inbound, outbound in
            var connection = HTTPConnection(responses: inbound.makeAsyncIterator(), requests: outbound)
            return try await body(&connection)
        }
    }

    /// Sends one request (with a JSON body when `json` is given) and reads its whole response.
    mutating func send(_ method: HTTPMethod, _ uri: String, json: Data? = nil) async throws -> HTTPResult {
        var headers = HTTPHeaders([("host", "127.0.0.1"), ("content-length", "\(json?.count ?? 0)")])
        if json != nil { headers.add(name: "content-type", value: "application/json") }
        try await requests.write(.head(HTTPRequestHead(version: .http1_1, method: method, uri: uri, headers: headers)))
        if let json { try await requests.write(.body(.byteBuffer(ByteBuffer(bytes: json)))) }
        try await requests.write(.end(nil))

        var status: Int?
        var body = Data()
        while let part = try await responses.next() {
            switch part {
            case .head(let head):
                status = Int(head.status.code)
            case .body(var buffer):
                guard status != nil else { throw HTTPConnectionError.bodyBeforeHead("\(method) \(uri)") }
                body.append(contentsOf: buffer.readBytes(length: buffer.readableBytes) ?? [])
            case .end:
                guard let status else { throw HTTPConnectionError.bodyBeforeHead("\(method) \(uri)") }
                return HTTPResult(status: status, body: body)
            }
        }
        throw HTTPConnectionError.closedBeforeResponse("\(method) \(uri)")
    }
}
