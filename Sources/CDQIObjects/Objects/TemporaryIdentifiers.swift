import Foundation
import Synchronization

/// The UUIDs of temporary object IDs: 8 random bytes drawn once per process, then a counter.
///
/// Unique within the process (which is all a temporary ID needs: it names an unsaved object of a
/// context), and far cheaper than a fresh random UUID for each of the objects a large import inserts.
enum TemporaryIdentifiers {
    private static let prefix: UInt64 = UInt64.random(in: .min ... .max)
    private static let counter = Atomic<UInt64>(0)

    static func next() -> UUID {
        let count = counter.add(1, ordering: .relaxed).newValue
        let p = prefix.bigEndian, c = count.bigEndian
        return withUnsafeBytes(of: (p, c)) { bytes in
            UUID(
                uuid: (
                    bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                    bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
                ))
        }
    }

    /// The counter part of a UUID ``next()`` made in this process, or `nil` for any other UUID.
    static func counter(of uuid: UUID) -> UInt64? {
        withUnsafeBytes(of: uuid.uuid) { bytes -> UInt64? in
            let p = bytes.loadUnaligned(fromByteOffset: 0, as: UInt64.self)
            guard UInt64(bigEndian: p) == prefix else { return nil }
            return UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
        }
    }
}
