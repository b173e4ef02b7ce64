// Sworm's operators: each builds the predicate of the `Query` method it is named after.

/// `NOT (<predicate>)`.
public prefix func ! (original: any Predicate) -> any Predicate { Query.not(original) }

/// `(<left>) AND (<right>)`.
public func && (left: any Predicate, right: any Predicate) -> any Predicate { Query.and(left, right) }

/// `(<left>) OR (<right>)`.
public func || (left: any Predicate, right: any Predicate) -> any Predicate { Query.or(left, right) }

/// `<attribute> == %@`.
public func == <A: SupportedAttributeType>(
    keyPath: KeyPath<some ManagedObjectConvertible, A>, value: A
) -> any Predicate where A.PrimitiveAttributeType: Equatable {
    Query.equalTo(keyPath, value)
}

/// `<attribute> == %@` for an optional attribute (`nil` compares with no value).
public func == <A: SupportedAttributeType>(
    keyPath: KeyPath<some ManagedObjectConvertible, A?>, value: A?
) -> any Predicate where A.PrimitiveAttributeType: Equatable {
    Query.equalTo(keyPath, value)
}

/// `<attribute> != %@`.
public func != <A: SupportedAttributeType>(
    keyPath: KeyPath<some ManagedObjectConvertible, A>, value: A
) -> any Predicate where A.PrimitiveAttributeType: Equatable {
    Query.notEqualTo(keyPath, value)
}

/// `<attribute> != %@` for an optional attribute (`nil` compares with no value).
public func != <A: SupportedAttributeType>(
    keyPath: KeyPath<some ManagedObjectConvertible, A?>, value: A?
) -> any Predicate where A.PrimitiveAttributeType: Equatable {
    Query.notEqualTo(keyPath, value)
}

/// `<attribute> > %@`.
public func > <A: SupportedAttributeType>(
    keyPath: KeyPath<some ManagedObjectConvertible, A>, value: A
) -> any Predicate where A.PrimitiveAttributeType: Comparable {
    Query.greaterThan(keyPath, value)
}

/// `<attribute> > %@` for an optional attribute (`nil` compares with no value).
public func > <A: SupportedAttributeType>(
    keyPath: KeyPath<some ManagedObjectConvertible, A?>, value: A?
) -> any Predicate where A.PrimitiveAttributeType: Comparable {
    Query.greaterThan(keyPath, value)
}

/// `<attribute> < %@`.
public func < <A: SupportedAttributeType>(
    keyPath: KeyPath<some ManagedObjectConvertible, A>, value: A
) -> any Predicate where A.PrimitiveAttributeType: Comparable {
    Query.lessThan(keyPath, value)
}

/// `<attribute> < %@` for an optional attribute (`nil` compares with no value).
public func < <A: SupportedAttributeType>(
    keyPath: KeyPath<some ManagedObjectConvertible, A?>, value: A?
) -> any Predicate where A.PrimitiveAttributeType: Comparable {
    Query.lessThan(keyPath, value)
}

/// `<attribute> >= %@`.
public func >= <A: SupportedAttributeType>(
    keyPath: KeyPath<some ManagedObjectConvertible, A>, value: A
) -> any Predicate where A.PrimitiveAttributeType: Comparable {
    Query.greaterThanOrEqualTo(keyPath, value)
}

/// `<attribute> >= %@` for an optional attribute (`nil` compares with no value).
public func >= <A: SupportedAttributeType>(
    keyPath: KeyPath<some ManagedObjectConvertible, A?>, value: A?
) -> any Predicate where A.PrimitiveAttributeType: Comparable {
    Query.greaterThanOrEqualTo(keyPath, value)
}

/// `<attribute> <= %@`.
public func <= <A: SupportedAttributeType>(
    keyPath: KeyPath<some ManagedObjectConvertible, A>, value: A
) -> any Predicate where A.PrimitiveAttributeType: Comparable {
    Query.lessThanOrEqualTo(keyPath, value)
}

/// `<attribute> <= %@` for an optional attribute (`nil` compares with no value).
public func <= <A: SupportedAttributeType>(
    keyPath: KeyPath<some ManagedObjectConvertible, A?>, value: A?
) -> any Predicate where A.PrimitiveAttributeType: Comparable {
    Query.lessThanOrEqualTo(keyPath, value)
}

/// `<attribute> IN %@`: the attribute is one of the values.
public func === <A: SupportedAttributeType>(
    keyPath: KeyPath<some ManagedObjectConvertible, A>, values: [A]
) -> any Predicate where A.PrimitiveAttributeType: Equatable {
    Query.in(keyPath, values)
}

/// `<attribute> IN %@` for an optional attribute.
public func === <A: SupportedAttributeType>(
    keyPath: KeyPath<some ManagedObjectConvertible, A?>, values: [A?]
) -> any Predicate where A.PrimitiveAttributeType: Equatable {
    Query.in(keyPath, values)
}
