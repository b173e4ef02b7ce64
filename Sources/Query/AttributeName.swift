import Foundation

/// The key an attribute stands for: its description (`"\(attribute)"`, an enum case's name), as
/// lightyear/Query takes it.
///
/// Working out a description goes through the runtime's reflection (a few hundred nanoseconds), and
/// queries name the same few attributes over and over. A value of a plain type of at most one byte (an
/// enum without associated values and with at most 256 cases: what `Attribute` enums are) is
/// determined by its byte, and so is its description: those names are kept once worked out, by type
/// and byte. Other values are described every time.
@usableFromInline enum AttributeName {
    private static let table = NameTable()

    /// The key of `attribute`.
    @usableFromInline static func of<Attribute: Hashable>(_ attribute: Attribute) -> String {
        guard _isPOD(Attribute.self), MemoryLayout<Attribute>.size <= 1 else { return String(describing: attribute) }
        let byte = withUnsafeBytes(of: attribute) { $0.first ?? 0 }
        let type = ObjectIdentifier(Attribute.self)
        if let name = table.name(type, byte) { return name }
        let name = String(describing: attribute)
        table.keep(name, type, byte)
        return name
    }

    /// The names kept, by type and byte, shared by every thread.
    ///
    /// `@unchecked Sendable`: `names` is only touched while holding `lock`.
    private final class NameTable: @unchecked Sendable {
        private let lock = NSLock()
        /// Guarded by `lock`: for each type, 256 slots.
        private var names: [ObjectIdentifier: [String?]] = [:]

        func name(_ type: ObjectIdentifier, _ byte: UInt8) -> String? {
            lock.withLock { names[type]?[Int(byte)] }
        }

        func keep(_ name: String, _ type: ObjectIdentifier, _ byte: UInt8) {
            lock.withLock {
                names[type, default: [String?](repeating: nil, count: 256)][Int(byte)] = name
            }
        }
    }
}
