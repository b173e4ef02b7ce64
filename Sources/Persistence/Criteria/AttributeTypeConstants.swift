import CDQIModel

// Core Data's `NSAttributeType` constants, as values of this project's `AttributeType`, so that
// `CDFunction.sum("timeStamp", resultType: NSDateAttributeType)` ports unchanged.

/// Integer 16.
public let NSInteger16AttributeType = AttributeType.integer16
/// Integer 32.
public let NSInteger32AttributeType = AttributeType.integer32
/// Integer 64.
public let NSInteger64AttributeType = AttributeType.integer64
/// Decimal.
public let NSDecimalAttributeType = AttributeType.decimal
/// Double.
public let NSDoubleAttributeType = AttributeType.double
/// Float.
public let NSFloatAttributeType = AttributeType.float
/// String.
public let NSStringAttributeType = AttributeType.string
/// Boolean.
public let NSBooleanAttributeType = AttributeType.boolean
/// Date.
public let NSDateAttributeType = AttributeType.date
/// Binary data.
public let NSBinaryDataAttributeType = AttributeType.binaryData
/// UUID.
public let NSUUIDAttributeType = AttributeType.uuid
/// URI.
public let NSURIAttributeType = AttributeType.uri
/// Transformable.
public let NSTransformableAttributeType = AttributeType.transformable
/// Object ID.
public let NSObjectIDAttributeType = AttributeType.objectID
/// Undefined.
public let NSUndefinedAttributeType = AttributeType.undefined
