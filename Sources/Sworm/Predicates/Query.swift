/// The predicate builders behind Sworm's operators, and the text tests that have no operator.
///
/// ```swift
/// \Book.year > 2000 || Query.endsWith(\Book.name, "ex")      // (year > %@) OR (name ENDSWITH[cd] %@)
/// ```
/// Values are compared as their primitives (an enumeration as its raw value). Key paths must be listed
/// in the type's `attributes`; one that is not makes the request's execution throw
/// ``RequestError/unmappedKeyPath(entity:keyPath:)``.
public enum Query {
    /// `NOT (<predicate>)`.
    public static func not(_ original: any Predicate) -> any Predicate {
        NotPredicate(original: original)
    }

    /// `(<left>) AND (<right>)`.
    public static func and(_ left: any Predicate, _ right: any Predicate) -> any Predicate {
        CompoundPredicate(left: left, right: right, operator: .and)
    }

    /// `(<left>) OR (<right>)`.
    public static func or(_ left: any Predicate, _ right: any Predicate) -> any Predicate {
        CompoundPredicate(left: left, right: right, operator: .or)
    }

    /// The attribute is equal to the value.
    public static func equalTo<PlainObject: ManagedObjectConvertible, A: SupportedAttributeType>(
        _ keyPath: KeyPath<PlainObject, A>, _ value: A
    ) -> any Predicate where A.PrimitiveAttributeType: Equatable {
        ComparisonPredicate<PlainObject>(keyPath: keyPath, value: value.encodePrimitiveValue(), operator: .equalTo)
    }

    /// The optional attribute is equal to the value (`nil` compares with no value).
    public static func equalTo<PlainObject: ManagedObjectConvertible, A: SupportedAttributeType>(
        _ keyPath: KeyPath<PlainObject, A?>, _ value: A?
    ) -> any Predicate where A.PrimitiveAttributeType: Equatable {
        ComparisonPredicate<PlainObject>(keyPath: keyPath, value: value?.encodePrimitiveValue(), operator: .equalTo)
    }

    /// The attribute is not equal to the value.
    public static func notEqualTo<PlainObject: ManagedObjectConvertible, A: SupportedAttributeType>(
        _ keyPath: KeyPath<PlainObject, A>, _ value: A
    ) -> any Predicate where A.PrimitiveAttributeType: Equatable {
        ComparisonPredicate<PlainObject>(keyPath: keyPath, value: value.encodePrimitiveValue(), operator: .notEqualTo)
    }

    /// The optional attribute is not equal to the value (`nil` compares with no value).
    public static func notEqualTo<PlainObject: ManagedObjectConvertible, A: SupportedAttributeType>(
        _ keyPath: KeyPath<PlainObject, A?>, _ value: A?
    ) -> any Predicate where A.PrimitiveAttributeType: Equatable {
        ComparisonPredicate<PlainObject>(keyPath: keyPath, value: value?.encodePrimitiveValue(), operator: .notEqualTo)
    }

    /// The attribute is greater than the value.
    public static func greaterThan<PlainObject: ManagedObjectConvertible, A: SupportedAttributeType>(
        _ keyPath: KeyPath<PlainObject, A>, _ value: A
    ) -> any Predicate where A.PrimitiveAttributeType: Comparable {
        ComparisonPredicate<PlainObject>(keyPath: keyPath, value: value.encodePrimitiveValue(), operator: .greaterThan)
    }

    /// The optional attribute is greater than the value (`nil` compares with no value).
    public static func greaterThan<PlainObject: ManagedObjectConvertible, A: SupportedAttributeType>(
        _ keyPath: KeyPath<PlainObject, A?>, _ value: A?
    ) -> any Predicate where A.PrimitiveAttributeType: Comparable {
        ComparisonPredicate<PlainObject>(keyPath: keyPath, value: value?.encodePrimitiveValue(), operator: .greaterThan)
    }

    /// The attribute is less than the value.
    public static func lessThan<PlainObject: ManagedObjectConvertible, A: SupportedAttributeType>(
        _ keyPath: KeyPath<PlainObject, A>, _ value: A
    ) -> any Predicate where A.PrimitiveAttributeType: Comparable {
        ComparisonPredicate<PlainObject>(keyPath: keyPath, value: value.encodePrimitiveValue(), operator: .lessThan)
    }

    /// The optional attribute is less than the value (`nil` compares with no value).
    public static func lessThan<PlainObject: ManagedObjectConvertible, A: SupportedAttributeType>(
        _ keyPath: KeyPath<PlainObject, A?>, _ value: A?
    ) -> any Predicate where A.PrimitiveAttributeType: Comparable {
        ComparisonPredicate<PlainObject>(keyPath: keyPath, value: value?.encodePrimitiveValue(), operator: .lessThan)
    }

    /// The attribute is greater than or equal to the value.
    public static func greaterThanOrEqualTo<PlainObject: ManagedObjectConvertible, A: SupportedAttributeType>(
        _ keyPath: KeyPath<PlainObject, A>, _ value: A
    ) -> any Predicate where A.PrimitiveAttributeType: Comparable {
        ComparisonPredicate<PlainObject>(keyPath: keyPath, value: value.encodePrimitiveValue(), operator: .greaterThanOrEqualTo)
    }

    /// The optional attribute is greater than or equal to the value (`nil` compares with no value).
    public static func greaterThanOrEqualTo<PlainObject: ManagedObjectConvertible, A: SupportedAttributeType>(
        _ keyPath: KeyPath<PlainObject, A?>, _ value: A?
    ) -> any Predicate where A.PrimitiveAttributeType: Comparable {
        ComparisonPredicate<PlainObject>(keyPath: keyPath, value: value?.encodePrimitiveValue(), operator: .greaterThanOrEqualTo)
    }

    /// The attribute is less than or equal to the value.
    public static func lessThanOrEqualTo<PlainObject: ManagedObjectConvertible, A: SupportedAttributeType>(
        _ keyPath: KeyPath<PlainObject, A>, _ value: A
    ) -> any Predicate where A.PrimitiveAttributeType: Comparable {
        ComparisonPredicate<PlainObject>(keyPath: keyPath, value: value.encodePrimitiveValue(), operator: .lessThanOrEqualTo)
    }

    /// The optional attribute is less than or equal to the value (`nil` compares with no value).
    public static func lessThanOrEqualTo<PlainObject: ManagedObjectConvertible, A: SupportedAttributeType>(
        _ keyPath: KeyPath<PlainObject, A?>, _ value: A?
    ) -> any Predicate where A.PrimitiveAttributeType: Comparable {
        ComparisonPredicate<PlainObject>(keyPath: keyPath, value: value?.encodePrimitiveValue(), operator: .lessThanOrEqualTo)
    }

    /// The attribute is one of the values (`IN`).
    public static func `in`<PlainObject: ManagedObjectConvertible, A: SupportedAttributeType>(
        _ keyPath: KeyPath<PlainObject, A>, _ values: [A]
    ) -> any Predicate where A.PrimitiveAttributeType: Equatable {
        ComparisonPredicate<PlainObject>(keyPath: keyPath, value: values.map { $0.encodePrimitiveValue() }, operator: .in)
    }

    /// The optional attribute is one of the values (`IN`; `nil` in the list stands for no value).
    public static func `in`<PlainObject: ManagedObjectConvertible, A: SupportedAttributeType>(
        _ keyPath: KeyPath<PlainObject, A?>, _ values: [A?]
    ) -> any Predicate where A.PrimitiveAttributeType: Equatable {
        ComparisonPredicate<PlainObject>(keyPath: keyPath, value: values.map { $0?.encodePrimitiveValue() }, operator: .in)
    }

    /// The string attribute contains `value`; case- and diacritic-insensitive (`[cd]`) unless
    /// `caseInsensitive` is `false`.
    public static func contains<PlainObject: ManagedObjectConvertible>(
        _ keyPath: KeyPath<PlainObject, String>, _ value: String, caseInsensitive: Bool = true
    ) -> any Predicate {
        TextPredicate<PlainObject>(keyPath: keyPath, value: value, operator: .contains, caseInsensitive: caseInsensitive)
    }

    /// The optional string attribute contains `value`; case- and diacritic-insensitive (`[cd]`) unless
    /// `caseInsensitive` is `false`.
    public static func contains<PlainObject: ManagedObjectConvertible>(
        _ keyPath: KeyPath<PlainObject, String?>, _ value: String, caseInsensitive: Bool = true
    ) -> any Predicate {
        TextPredicate<PlainObject>(keyPath: keyPath, value: value, operator: .contains, caseInsensitive: caseInsensitive)
    }

    /// The string attribute begins with `value`; case- and diacritic-insensitive (`[cd]`) unless
    /// `caseInsensitive` is `false`.
    public static func beginsWith<PlainObject: ManagedObjectConvertible>(
        _ keyPath: KeyPath<PlainObject, String>, _ value: String, caseInsensitive: Bool = true
    ) -> any Predicate {
        TextPredicate<PlainObject>(keyPath: keyPath, value: value, operator: .beginsWith, caseInsensitive: caseInsensitive)
    }

    /// The optional string attribute begins with `value`; case- and diacritic-insensitive (`[cd]`) unless
    /// `caseInsensitive` is `false`.
    public static func beginsWith<PlainObject: ManagedObjectConvertible>(
        _ keyPath: KeyPath<PlainObject, String?>, _ value: String, caseInsensitive: Bool = true
    ) -> any Predicate {
        TextPredicate<PlainObject>(keyPath: keyPath, value: value, operator: .beginsWith, caseInsensitive: caseInsensitive)
    }

    /// The string attribute ends with `value`; case- and diacritic-insensitive (`[cd]`) unless
    /// `caseInsensitive` is `false`.
    public static func endsWith<PlainObject: ManagedObjectConvertible>(
        _ keyPath: KeyPath<PlainObject, String>, _ value: String, caseInsensitive: Bool = true
    ) -> any Predicate {
        TextPredicate<PlainObject>(keyPath: keyPath, value: value, operator: .endsWith, caseInsensitive: caseInsensitive)
    }

    /// The optional string attribute ends with `value`; case- and diacritic-insensitive (`[cd]`) unless
    /// `caseInsensitive` is `false`.
    public static func endsWith<PlainObject: ManagedObjectConvertible>(
        _ keyPath: KeyPath<PlainObject, String?>, _ value: String, caseInsensitive: Bool = true
    ) -> any Predicate {
        TextPredicate<PlainObject>(keyPath: keyPath, value: value, operator: .endsWith, caseInsensitive: caseInsensitive)
    }
}
