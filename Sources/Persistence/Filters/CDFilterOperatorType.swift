/// The operator of a ``CDOperatorFilter``: an Objective-C `typedef enum`, which Swift imports as a
/// struct with one global constant per case (`CDFilterOperatorEqual`, …).
public struct CDFilterOperatorType: RawRepresentable, Hashable, Sendable {
    /// Upstream's number for the operator (1…9).
    public var rawValue: UInt32

    /// The operator numbered `rawValue`.
    public init(rawValue: UInt32) {
        self.rawValue = rawValue
    }

    /// The operator numbered `rawValue`.
    public init(_ rawValue: UInt32) {
        self.rawValue = rawValue
    }
}

/// `==` (upstream's operator string `=`).
public let CDFilterOperatorEqual = CDFilterOperatorType(1)
/// `>` (upstream's spelling).
public let CDFilterOperatorGreather = CDFilterOperatorType(2)
/// `>=` (upstream's spelling).
public let CDFilterOperatorGreatherOrEqual = CDFilterOperatorType(3)
/// `<`.
public let CDFilterOperatorLess = CDFilterOperatorType(4)
/// `<=`.
public let CDFilterOperatorLessOrEqual = CDFilterOperatorType(5)
/// `!=`.
public let CDFilterOperatorNotEqual = CDFilterOperatorType(6)
/// `LIKE`.
public let CDFilterOperatorLike = CDFilterOperatorType(7)
/// `IN`.
public let CDFilterOperatorIn = CDFilterOperatorType(8)
/// `CONTAINS`.
public let CDFilterOperatorContains = CDFilterOperatorType(9)
