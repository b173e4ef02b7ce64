/// What the generator writes for one entity's class: a full `ManagedObject` subclass, or (for a
/// `category` entity, whose class is written by hand) an extension with the typed properties.
public struct EntityClass: Sendable, Hashable {
    /// What is written.
    public enum Form: Sendable, Hashable {
        /// The whole class (`codeGenerationType` `class`, or `cdqi --objects`).
        case fullClass
        /// An extension of a hand-written class (`codeGenerationType` `category`).
        case category
    }

    /// How the class names its entity for queries (`Entity.cdqiEntityName`).
    public enum EntityNameDeclaration: Sendable, Hashable {
        /// Not declared in the class (a category, or a subclass of a hand-written class).
        case none
        /// `class var cdqiEntityName` (a generated class whose superclass is `ManagedObject`).
        case declared
        /// `override class var cdqiEntityName` (a subclass of another generated class).
        case overridden
    }

    /// The entity's name.
    public var entityName: String
    /// The class name (without backticks).
    public var className: String
    /// What is written.
    public var form: Form
    /// The superclass: the class of the nearest ancestor entity that has one, or `nil` for `ManagedObject`.
    public var superclassName: String?
    /// Whether the class is `final` (no other generated class subclasses it).
    public var isFinal: Bool
    /// How the class declares its entity name.
    public var entityNameDeclaration: EntityNameDeclaration
    /// Whether the class overrides `cdqiReusableClass` with itself, so that a fetch cursor may reuse its
    /// objects: a full class whose ancestors' classes are all generated whole too (none written by
    /// hand, which could have stored properties, an initializer or a `deinit`).
    public var reusesObjects: Bool
    /// The typed properties, in model order (the entity's own, and those of ancestors without a class).
    public var properties: [ObjectProperty]

    /// Creates a class description.
    public init(
        entityName: String, className: String, form: Form, superclassName: String? = nil, isFinal: Bool = true,
        entityNameDeclaration: EntityNameDeclaration = .none, reusesObjects: Bool = false, properties: [ObjectProperty] = []
    ) {
        self.entityName = entityName
        self.className = className
        self.form = form
        self.superclassName = superclassName
        self.isFinal = isFinal
        self.entityNameDeclaration = entityNameDeclaration
        self.reusesObjects = reusesObjects
        self.properties = properties
    }

    /// The file the class is written to when each entity gets its own file: `<Class>.swift`, or
    /// `<Class>+Properties.swift` for a category.
    public var fileName: String {
        form == .fullClass ? "\(className).swift" : "\(className)+Properties.swift"
    }
}

/// One typed property of a generated class.
public struct ObjectProperty: Sendable, Hashable {
    /// The property's value.
    public enum Kind: Sendable, Hashable {
        /// An attribute of a scalar type; `isOptional` says whether the Swift type is optional.
        case attribute(ObjectAttributeType, isOptional: Bool)
        /// A to-one relationship to objects of `className` (`nil` for `ManagedObject`).
        case toOne(className: String?)
        /// A to-many relationship: a `Set`, or an array when ordered.
        case toMany(className: String?, isOrdered: Bool)
    }

    /// The Swift name, without backticks.
    public var name: String
    /// The property's name in the model.
    public var key: String
    /// The property's position in the entity's attribute list (attributes) or relationship list
    /// (relationships), as the runtime's `EntityLayout` orders them: inherited properties first.
    public var index: Int
    /// What it holds.
    public var kind: Kind

    /// Creates a property.
    public init(name: String, key: String, index: Int, kind: Kind) {
        self.name = name
        self.key = key
        self.index = index
        self.kind = kind
    }
}

/// The Swift type of an attribute property, and the runtime accessors that read and write it.
public enum ObjectAttributeType: String, Sendable, Hashable, CaseIterable {
    /// `String` (String attributes).
    case string = "String"
    /// `Int16` (Integer 16).
    case int16 = "Int16"
    /// `Int32` (Integer 32).
    case int32 = "Int32"
    /// `Int64` (Integer 64).
    case int64 = "Int64"
    /// `Double`.
    case double = "Double"
    /// `Float`.
    case float = "Float"
    /// `Decimal`.
    case decimal = "Decimal"
    /// `Bool` (Boolean).
    case bool = "Bool"
    /// `Date`.
    case date = "Date"
    /// `Data` (Binary, and Transformable as its transformed data).
    case data = "Data"
    /// `UUID`.
    case uuid = "UUID"
    /// `URL` (URI).
    case url = "URL"

    /// The Swift type's name (also the accessor's: `cdqiString(at:)`, `cdqiSetString(_:at:)`).
    public var swiftName: String { rawValue }

    /// The module that declares the type.
    var module: String {
        switch self {
        case .string, .int16, .int32, .int64, .double, .float, .bool: "Swift"
        case .decimal, .date, .data, .uuid, .url: "Foundation"
        }
    }

    /// What a non-optional property reads while its value is unset, or `nil` when the type has no
    /// zero (such properties are always optional).
    var zeroLiteral: String? {
        switch self {
        case .string: "\"\""
        case .int16, .int32, .int64, .double, .float, .decimal: "0"
        case .bool: "false"
        case .data: "Data()"
        case .date, .uuid, .url: nil
        }
    }
}
