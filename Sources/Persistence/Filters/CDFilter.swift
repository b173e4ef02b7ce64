import CDQIPredicate

/// What every filter has (Objective-C's `CDFilter` protocol, imported by Swift as `CDFilterProtocol`).
public protocol CDFilterProtocol: CDCriteriaElementProtocol {
    /// Never set upstream: always `nil`.
    var filteredElement: CDCriteriaElement? { get }
    /// The values the filter compares with.
    var bindValues: [Any]? { get }
    /// Never set upstream: always `nil`.
    var bindNames: [String]? { get }
    /// The filter's predicate, or `nil` when it has none.
    func createPredicate() -> PredicateNode?
}

/// A restriction of a query's results: a light object around a predicate. Make filters with the
/// class factories (`CDFilter.equals("name", value: "abc")`) or with ``CDFilterFactory``.
///
/// The base class has no predicate: ``createPredicate()`` answers `nil`.
open class CDFilter: CDCriteriaElement, CDFilterProtocol {
    /// Never set upstream: always `nil`.
    public let filteredElement: CDCriteriaElement? = nil
    /// The values the filter compares with (`nil` for the null filters).
    public let bindValues: [Any]?
    /// Never set upstream: always `nil`.
    public let bindNames: [String]? = nil

    /// A filter about no property and no value.
    public override init() {
        bindValues = nil
        super.init()
    }

    /// A filter about `property` with no value.
    public override init(property: String?) {
        bindValues = nil
        super.init(property: property)
    }

    /// A filter of `property` against one value.
    public init(propertyAndValue property: String?, value: Any?) {
        bindValues = [value as Any]
        super.init(property: property)
    }

    /// A filter of `property` against several values.
    public init(property: String?, values: [Any]?) {
        bindValues = values
        super.init(property: property)
    }

    /// The filter's predicate; on failure the error goes to ``errorHandler`` and the answer is `nil`,
    /// as upstream (whose base class answers `nil`).
    public func createPredicate() -> PredicateNode? {
        do {
            return try tryCreatePredicate()
        } catch {
            report(error, to: nil)
            return nil
        }
    }

    /// The filter's predicate, or the error that keeps it from having one: the throwing twin of
    /// ``CDFilter/createPredicate()``, and what subclasses override.
    open func tryCreatePredicate() throws(PersistenceError) -> PredicateNode {
        throw .invalidFilter(property: property, reason: "CDFilter itself has no predicate; make filters with its factories")
    }

    /// The first bound value (what the operator filters compare with).
    var firstValue: Any? {
        guard let values = bindValues, let first = values.first else { return nil }
        return first
    }

    /// Parses `format` with `arguments`, reporting a parse error as an invalid filter.
    func parse(_ format: String, _ arguments: [Any?]) throws(PersistenceError) -> PredicateNode {
        do {
            return try PredicateNode(format: format, argumentArray: arguments)
        } catch {
            throw .invalidFilter(property: property, reason: error.description)
        }
    }

    // MARK: - Class factories (CDFilter's own; CDFilterFactory has these and more)

    /// `property LIKE "value*"` (a `*` is appended unless `value` ends with one), case sensitive.
    open class func like(_ property: String?, value: String?) -> CDFilter {
        CDLikeFilter(property: property, value: value, caseSensitive: true)
    }

    /// `property LIKE "value*"`, or `LIKE[c]` when `caseSensitive` is `false`.
    open class func like(_ property: String?, value: String?, caseSensitive: Bool) -> CDFilter {
        CDLikeFilter(property: property, value: value, caseSensitive: caseSensitive)
    }

    /// `property == value`.
    open class func equals(_ property: String?, value: Any?) -> CDFilter {
        CDEqualFilter(propertyAndValue: property, value: value)
    }

    /// `property != value`.
    open class func notEquals(_ property: String?, value: Any?) -> CDFilter {
        CDOperatorFilter(propertyAndValue: property, value: value, operatorType: CDFilterOperatorNotEqual)
    }

    /// `property < value`.
    open class func less(_ property: String?, value: Any?) -> CDFilter {
        CDOperatorFilter(propertyAndValue: property, value: value, operatorType: CDFilterOperatorLess)
    }

    /// `property > value` (upstream's spelling; ``greater(_:value:)`` is the same filter).
    open class func greather(_ property: String?, value: Any?) -> CDFilter {
        CDOperatorFilter(propertyAndValue: property, value: value, operatorType: CDFilterOperatorGreather)
    }

    /// `property > value`: ``greather(_:value:)`` spelt in English.
    open class func greater(_ property: String?, value: Any?) -> CDFilter {
        greather(property, value: value)
    }

    /// An empty OR of filters (`FALSEPREDICATE` until the first ``CDFilterJunction/add(_:)``).
    open class func disjunction() -> CDFilterDisjunction {
        CDFilterDisjunction()
    }

    /// An empty AND of filters (`TRUEPREDICATE` until the first ``CDFilterJunction/add(_:)``);
    /// upstream's spelling (``conjunction()`` is the same).
    open class func conjuction() -> CDFilterConjunction {
        CDFilterConjunction()
    }

    /// ``conjuction()`` spelt in English.
    open class func conjunction() -> CDFilterConjunction {
        CDFilterConjunction()
    }

    /// `property == nil`.
    open class func isNull(_ property: String?) -> CDFilter {
        CDNullFilter(property: property, isNull: true)
    }

    /// `property != nil`.
    open class func isNotNull(_ property: String?) -> CDFilter {
        CDNullFilter(property: property, isNull: false)
    }

    /// `property IN {values…}`; ``bindValues`` is `[values]` (one element: the array), as upstream.
    open class func inValues(_ property: String?, values: [Any]?) -> CDFilter {
        CDOperatorFilter(propertyAndValue: property, value: values ?? [], operatorType: CDFilterOperatorIn)
    }
}
