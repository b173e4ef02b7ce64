import Foundation

/// The proxy of a String attribute.
public typealias StringAttribute = ScalarAttribute<String>
/// The proxy of an Integer 16 attribute.
public typealias Integer16Attribute = ScalarAttribute<Int16>
/// The proxy of an Integer 32 attribute.
public typealias Integer32Attribute = ScalarAttribute<Int32>
/// The proxy of an Integer 64 attribute.
public typealias Integer64Attribute = ScalarAttribute<Int64>
/// The proxy of a Double attribute.
public typealias DoubleAttribute = ScalarAttribute<Double>
/// The proxy of a Float attribute.
public typealias FloatAttribute = ScalarAttribute<Float>
/// The proxy of a Decimal attribute.
public typealias DecimalAttribute = ScalarAttribute<Decimal>
/// The proxy of a Boolean attribute.
public typealias BooleanAttribute = ScalarAttribute<Bool>
/// The proxy of a Boolean attribute (the same type as ``BooleanAttribute``).
public typealias BoolAttribute = ScalarAttribute<Bool>
/// The proxy of a Date attribute.
public typealias DateAttribute = ScalarAttribute<Date>
/// The proxy of a Binary attribute.
public typealias DataAttribute = ScalarAttribute<Data>
/// The proxy of a UUID attribute.
public typealias UUIDAttribute = ScalarAttribute<UUID>
/// The proxy of a URI attribute.
public typealias URIAttribute = ScalarAttribute<URL>
