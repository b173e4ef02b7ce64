// The Company API server: `swift run company-server [--port 8080] [--host 127.0.0.1]
// [--store Company.sqlite] [--sample-data]`. Stops on SIGINT or SIGTERM.

import CompanyAPI
import Foundation
import Hummingbird

/// The command line's options.
struct Options {
    var host = "127.0.0.1"
    var port = 8080
    var store = "Company.sqlite"
    var sampleData = false

    init(_ arguments: [String]) throws(UsageError) {
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "--host": host = try Self.value(of: argument, &remaining)
            case "--port":
                let text = try Self.value(of: argument, &remaining)
                guard let number = Int(text), (0...65_535).contains(number) else {
                    throw UsageError("--port takes a number from 0 to 65535, not '\(text)'")
                }
                port = number
            case "--store": store = try Self.value(of: argument, &remaining)
            case "--sample-data": sampleData = true
            default: throw UsageError("unknown argument '\(argument)'")
            }
        }
    }

    private static func value(of option: String, _ remaining: inout ArraySlice<String>) throws(UsageError) -> String {
        guard let value = remaining.popFirst() else { throw UsageError("\(option) needs a value") }
        return value
    }
}

/// A mistake on the command line.
struct UsageError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

do {
    let options = try Options(Array(CommandLine.arguments.dropFirst()))
    let container = try CompanyServer.openStore(at: URL(fileURLWithPath: options.store))
    if options.sampleData, try await SampleData.insert(into: container) {
        print("inserted the sample data into \(options.store)")
    }
    let app = CompanyServer.application(container: container, host: options.host, port: options.port) { port in
        // Written at once (not buffered), so that a script reading the output learns the port.
        FileHandle.standardOutput.write(Data("listening on http://\(options.host):\(port)\n".utf8))
    }
    try await app.runService()
} catch let error as UsageError {
    FileHandle.standardError.write(Data("company-server: \(error)\nusage: company-server [--host H] [--port N] [--store FILE] [--sample-data]\n".utf8))
    exit(2)
} catch {
    FileHandle.standardError.write(Data("company-server: \(error)\n".utf8))
    exit(1)
}
