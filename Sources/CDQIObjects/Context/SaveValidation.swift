import CDQIModel
import CDQIPredicate
import Foundation

/// The checks a save runs before writing anything: required values, ranges, lengths, patterns,
/// relationship counts, Deny rules and uniqueness constraints.
struct SaveValidation {
    var failures: [ValidationFailure] = []

    private mutating func fail(_ object: ManagedObject, _ key: String, _ problem: ValidationFailure.Problem) {
        failures.append(
            ValidationFailure(
                entityName: object.entity.name, objectID: object.objectID.uriString, key: key, problem: problem))
    }

    /// Checks an inserted or updated object's properties.
    mutating func validate(_ object: ManagedObject) throws(ManagedObjectError) {
        // Values checked in place (a copy out of the array retained and released each), and only those
        // of attributes with something to check.
        let attributes = object.entity.validatedAttributes
        let slotCount = object.entity.attributes.count
        object.attributeValues.withUnsafeBufferPointer { values in
            guard values.count == slotCount else { return }
            for attribute in attributes {
                if attribute.hasValueConstraints {
                    validate(values[attribute.index], of: attribute.description, in: object)
                } else if values[attribute.index].isNull {
                    fail(object, attribute.name, .missingMandatoryProperty)
                }
            }
        }
        // Only relationships with something to check: an optional to-many one without count limits need
        // not even be loaded.
        for relationship in object.entity.validatedRelationships {
            let description = relationship.description
            if relationship.isToMany {
                let count = try object.toMany(relationship).objects.count { !$0.deletedFlag }
                if count == 0 && !description.isOptional && (description.minCount ?? 0) <= 1 {
                    fail(object, relationship.name, .missingMandatoryProperty)
                } else if let minimum = description.minCount, count < minimum, count > 0 || !description.isOptional {
                    fail(object, relationship.name, .tooFewObjects(minimum: minimum, count: count))
                }
                if let maximum = description.maxCount, maximum > 0, count > maximum {
                    fail(object, relationship.name, .tooManyObjects(maximum: maximum, count: count))
                }
            } else {
                // A required to-one (the only kind of to-one validated).
                let destination = object.toOneValues[relationship.slotIndex]
                if destination == nil || destination?.deletedFlag == true {
                    fail(object, relationship.name, .missingMandatoryProperty)
                }
            }
        }
    }

    private mutating func validate(_ value: StoredValue, of attribute: AttributeDescription, in object: ManagedObject) {
        let key = attribute.name
        switch value {
        case .null:
            if !attribute.isOptional { fail(object, key, .missingMandatoryProperty) }
        case .integer(let v): checkNumber(Double(v), attribute, object)
        case .double(let v): checkNumber(v, attribute, object)
        case .decimal(let v): checkNumber(StoredValue.decimalAsDouble(v), attribute, object)
        case .date(let seconds):
            if let minimum = attribute.minDateTimeInterval ?? attribute.minValueString.flatMap(Double.init),
                seconds < minimum
            {
                fail(object, key, .valueTooSmall(minimum: Self.dateText(minimum)))
            }
            if let maximum = attribute.maxDateTimeInterval ?? attribute.maxValueString.flatMap(Double.init),
                seconds > maximum
            {
                fail(object, key, .valueTooLarge(maximum: Self.dateText(maximum)))
            }
        case .string(let text):
            // Core Data counts lengths in UTF-16 units (NSString's length).
            let length = text.utf16.count
            if let minimum = attribute.minValueString.flatMap({ Int($0) }), length < minimum {
                fail(object, key, .stringTooShort(minimumLength: minimum, length: length))
            }
            if let maximum = attribute.maxValueString.flatMap({ Int($0) }), length > maximum {
                fail(object, key, .stringTooLong(maximumLength: maximum, length: length))
            }
            if let pattern = attribute.regularExpression, !pattern.isEmpty,
                !RegexMatcher.matches(text, pattern: pattern)
            {
                fail(object, key, .patternMismatch(pattern: pattern))
            }
        default:
            break
        }
    }

    private mutating func checkNumber(_ value: Double, _ attribute: AttributeDescription, _ object: ManagedObject) {
        if let text = attribute.minValueString, let minimum = Double(text), value < minimum {
            fail(object, attribute.name, .valueTooSmall(minimum: text))
        }
        if let text = attribute.maxValueString, let maximum = Double(text), value > maximum {
            fail(object, attribute.name, .valueTooLarge(maximum: text))
        }
    }

    private static func dateText(_ seconds: Double) -> String {
        ISO8601DateFormatter().string(from: Date(timeIntervalSinceReferenceDate: seconds))
    }

    /// Checks a deleted object's Deny relationships.
    mutating func validateDeletion(_ object: ManagedObject) throws(ManagedObjectError) {
        for relationship in object.entity.relationships
        where relationship.isStored && relationship.description.deleteRule == .deny {
            let count: Int
            if relationship.isToMany {
                count = try object.toMany(relationship).objects.count { !$0.deletedFlag }
            } else {
                count = object.toOneValues[relationship.slotIndex].map { $0.deletedFlag ? 0 : 1 } ?? 0
            }
            if count > 0 { fail(object, relationship.name, .deleteDenied(count: count)) }
        }
    }

    // MARK: Uniqueness

    /// The values of a constraint's properties, or `nil` when one is nil (nil values never collide).
    static func constraintValues(_ constraint: ConstraintLayout, of object: ManagedObject) -> [StoredValue]? {
        var values: [StoredValue] = []
        for property in constraint.properties {
            if let attribute = object.entity.attribute(named: property) {
                let value = object.attributeValues[attribute.index]
                if value.isNull { return nil }
                values.append(value)
            } else if let relationship = object.entity.relationship(named: property), !relationship.isToMany,
                let destination = object.toOneValues[relationship.slotIndex]
            {
                values.append(.objectID(destination.objectID.reference))
            } else {
                return nil
            }
        }
        return values
    }

    /// Whether the object's values for the constraint changed since it was saved (always for a new object).
    static func constraintChanged(_ constraint: ConstraintLayout, of object: ManagedObject) -> Bool {
        guard object.snapshotVersion != nil else { return true }
        for property in constraint.properties {
            if let attribute = object.entity.attribute(named: property),
                object.attributeValues[attribute.index] != object.committedAttribute(at: attribute.index)
            {
                return true
            }
            if let relationship = object.entity.relationship(named: property), !relationship.isToMany,
                object.toOneValues[relationship.slotIndex] !== object.committedToOne(at: relationship.slotIndex)
            {
                return true
            }
        }
        return false
    }

    /// Pending objects that share constraint values with each other.
    mutating func checkUniquenessAmongPending(_ objects: [ManagedObject]) {
        var seen: [String: [[StoredValue]: ManagedObject]] = [:]
        for object in objects {
            for constraint in object.entity.uniquenessConstraints {
                guard let values = Self.constraintValues(constraint, of: object) else { continue }
                let group = constraint.declaringEntity + "." + constraint.properties.joined(separator: ",")
                if let other = seen[group]?[values] {
                    fail(
                        object, constraint.properties.joined(separator: ","),
                        .notUnique(properties: constraint.properties, otherObject: other.objectID.uriString))
                } else {
                    seen[group, default: [:]][values] = object
                }
            }
        }
    }

    /// Saved rows that share constraint values with a pending object (rows whose objects are being
    /// deleted or changed away from those values in this save do not count).
    mutating func checkUniquenessAgainstStore(
        _ objects: [ManagedObject], transaction: any SaveTransaction, context: ManagedObjectContext
    ) throws {
        for object in objects {
            for constraint in object.entity.uniquenessConstraints where Self.constraintChanged(constraint, of: object) {
                guard let values = Self.constraintValues(constraint, of: object) else { continue }
                var columns: [String] = []
                var bound: [StoredValue] = []
                for (property, value) in zip(constraint.properties, values) {
                    if let attribute = object.entity.attribute(named: property), let column = attribute.column {
                        columns.append(column)
                        bound.append(value)
                    } else if let relationship = object.entity.relationship(named: property),
                        let column = relationship.columns.value
                    {
                        guard case .objectID(let reference) = value, case .primaryKey(let key) = reference.identity
                        else {
                            columns = []
                            break
                        }
                        columns.append(column)
                        bound.append(.integer(key))
                    }
                }
                guard columns.count == constraint.properties.count else { continue }
                let numbers = constraint.entityNumbers
                let rows = try transaction.rowsMatching(
                    table: object.entity.tableName, numbers: (numbers.min() ?? 0)...(numbers.max() ?? 0), columns: columns,
                    values: bound)
                for (entityNumber, key) in rows {
                    guard let id = context.objectID(entityNumber: entityNumber, key: key) else { continue }
                    if id == object.objectID { continue }
                    if let registered = context.registeredObject(for: id), registered.isLoaded {
                        if registered.deletedFlag { continue }
                        if Self.constraintValues(constraint, of: registered) != values { continue }
                    }
                    fail(
                        object, constraint.properties.joined(separator: ","),
                        .notUnique(properties: constraint.properties, otherObject: id.uriString))
                    break
                }
            }
        }
    }
}
