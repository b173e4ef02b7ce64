import Foundation

/// `swiftc -typecheck` of a source file against the modules this test bundle was built with, with the
/// system libraries' module maps the package's modules need (every C module a public module imports).
enum SwiftcTypecheck {
    /// The package root (…/Tests/CoreDataQueryInterfaceTests/Support/SwiftcTypecheck.swift → four levels up).
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The C modules of `Sources/` whose module maps the compiler must be shown.
    static let systemModules = ["CSQLite", "CLibXML2", "CZlib"]

    /// Runs the compiler on `source` with `flags` added; returns its status and standard error.
    static func run(_ source: URL, flags: [String] = []) throws -> (status: Int32, errors: String) {
        let testBinary = URL(fileURLWithPath: CommandLine.arguments[0])
        let modules = testBinary.deletingLastPathComponent().appendingPathComponent("Modules").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments =
            ["swiftc", "-typecheck", "-I", modules]
            + systemModules.flatMap { ["-Xcc", "-fmodule-map-file=\(packageRoot.path)/Sources/\($0)/module.modulemap"] }
            + ["-I", "/usr/include/libxml2"] + flags + [source.path]
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let output = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }
}
