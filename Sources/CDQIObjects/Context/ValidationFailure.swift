/// One reason a save was refused: an object, a key, and what is wrong with its value.
public struct ValidationFailure: Sendable, Hashable, CustomStringConvertible {
    /// What is wrong.
    public enum Problem: Sendable, Hashable {
        /// A required attribute or relationship has no value.
        case missingMandatoryProperty
        /// A number or date is below the minimum (written as the model writes it).
        case valueTooSmall(minimum: String)
        /// A number or date is above the maximum.
        case valueTooLarge(maximum: String)
        /// A string is shorter than the minimum length.
        case stringTooShort(minimumLength: Int, length: Int)
        /// A string is longer than the maximum length.
        case stringTooLong(maximumLength: Int, length: Int)
        /// A string does not match the attribute's regular expression (as a whole).
        case patternMismatch(pattern: String)
        /// A to-many relationship holds fewer objects than its minimum count.
        case tooFewObjects(minimum: Int, count: Int)
        /// A to-many relationship holds more objects than its maximum count.
        case tooManyObjects(maximum: Int, count: Int)
        /// The object is deleted but a Deny relationship still holds objects.
        case deleteDenied(count: Int)
        /// Another object (saved, or pending in this context) has the same values for a uniqueness
        /// constraint.
        case notUnique(properties: [String], otherObject: String)
    }

    /// The object's entity.
    public var entityName: String
    /// The object's ID (URI form; temporary for an unsaved object).
    public var objectID: String
    /// The property, or the constraint's properties joined with commas.
    public var key: String
    /// What is wrong.
    public var problem: Problem

    /// Core Data's error code for this kind of failure (`NSValidationMissingMandatoryPropertyError`
    /// 1570, …; `NSManagedObjectConstraintValidationError` 1551 for uniqueness).
    public var code: Int {
        switch problem {
        case .missingMandatoryProperty: 1570
        case .tooFewObjects: 1580
        case .tooManyObjects: 1590
        case .deleteDenied: 1600
        case .valueTooLarge: 1610
        case .valueTooSmall: 1620
        case .stringTooLong: 1660
        case .stringTooShort: 1670
        case .patternMismatch: 1680
        case .notUnique: 1551
        }
    }

    /// A sentence describing the value.
    public var description: String {
        let subject = "\(entityName).\(key) of \(objectID)"
        switch problem {
        case .missingMandatoryProperty: return "\(subject): a value is required"
        case .valueTooSmall(let minimum): return "\(subject): the value is below the minimum \(minimum)"
        case .valueTooLarge(let maximum): return "\(subject): the value is above the maximum \(maximum)"
        case .stringTooShort(let minimum, let length):
            return "\(subject): the string has \(length) characters, fewer than the minimum \(minimum)"
        case .stringTooLong(let maximum, let length):
            return "\(subject): the string has \(length) characters, more than the maximum \(maximum)"
        case .patternMismatch(let pattern): return "\(subject): the string does not match \(pattern)"
        case .tooFewObjects(let minimum, let count):
            return "\(subject): the relationship holds \(count) objects, fewer than the minimum \(minimum)"
        case .tooManyObjects(let maximum, let count):
            return "\(subject): the relationship holds \(count) objects, more than the maximum \(maximum)"
        case .deleteDenied(let count):
            return "\(subject): the object cannot be deleted while the relationship holds \(count) objects (Deny rule)"
        case .notUnique(let properties, let other):
            return "\(entityName) \(objectID): \(other) has the same \(properties.joined(separator: ", "))"
        }
    }
}
