/// The direction of a ``CDOrder``: an Objective-C `typedef enum` over `BOOL`, which Swift imports as
/// a struct with the global constants ``kCDOrderAscending`` and ``kCDOrderDescending``.
public struct CDOrderType: RawRepresentable, Hashable, Sendable {
    /// `1` (`YES`) ascending, `0` (`NO`) descending.
    public var rawValue: UInt32

    /// The direction numbered `rawValue`: 0 is descending, anything else ascending.
    public init(rawValue: UInt32) {
        self.rawValue = rawValue
    }

    /// Whether the direction is ascending.
    public var isAscending: Bool { rawValue != 0 }
}

/// Ascending order (`YES`).
public let kCDOrderAscending = CDOrderType(rawValue: 1)
/// Descending order (`NO`).
public let kCDOrderDescending = CDOrderType(rawValue: 0)
