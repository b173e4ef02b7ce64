import CDQIPredicate
import Foundation

/// The direct way to decode one attribute of a struct: for a stored property (at a known byte offset)
/// of one of the 13 primitive types, or an optional one, the stored value the store usually holds for
/// it is written straight into the property, with no closure call and no generic conversion.
///
/// Only the cases whose result is plainly the same as the primitive's `init(storedValue:)` take this
/// path (an Integer 64 value into an `Int64`, a string into a `String`, no value into an optional…);
/// anything else (a conversion, a value that does not fit, a missing value of a non-optional, a
/// custom or `RawRepresentable` type) falls back to the attribute's decoder, which gives the same
/// values and the same ``AttributeError``s as ever.
@usableFromInline
struct SlotDecoder: Sendable {
    /// The property's type, `general` when it has no direct path.
    @usableFromInline
    enum Kind: UInt8, Sendable {
        case general, bool, int, int16, int32, int64, float, double, decimal, date, string, data, uuid, url
    }

    @usableFromInline let kind: Kind
    /// Whether the property is an optional of `kind`'s type.
    @usableFromInline let isOptional: Bool
    /// The property's byte offset in the struct.
    @usableFromInline let offset: Int

    /// The decoder that always falls back.
    @usableFromInline static let general = SlotDecoder(kind: .general, isOptional: false, offset: 0)

    @usableFromInline
    init(kind: Kind, isOptional: Bool, offset: Int) {
        self.kind = kind
        self.isOptional = isOptional
        self.offset = offset
    }

    /// The direct decoder for a stored property of type `type` (or `type?` when `isOptional`) at byte
    /// `offset` (`nil` when the property has no offset: a class's, or a computed one).
    @usableFromInline
    init(_ type: Any.Type, isOptional: Bool, offset: Int?) {
        guard let offset, let kind = Self.kind(of: type) else {
            self = .general
            return
        }
        self.init(kind: kind, isOptional: isOptional, offset: offset)
    }

    private static func kind(of type: Any.Type) -> Kind? {
        switch ObjectIdentifier(type) {
        case ObjectIdentifier(Bool.self): .bool
        case ObjectIdentifier(Int.self): .int
        case ObjectIdentifier(Int16.self): .int16
        case ObjectIdentifier(Int32.self): .int32
        case ObjectIdentifier(Int64.self): .int64
        case ObjectIdentifier(Float.self): .float
        case ObjectIdentifier(Double.self): .double
        case ObjectIdentifier(Decimal.self): .decimal
        case ObjectIdentifier(Date.self): .date
        case ObjectIdentifier(String.self): .string
        case ObjectIdentifier(Data.self): .data
        case ObjectIdentifier(UUID.self): .uuid
        case ObjectIdentifier(URL.self): .url
        default: nil
        }
    }

    /// Writes `stored` into the property of `object` when it takes the direct path; returns `false`
    /// (changing nothing) when the attribute's decoder must decode it instead.
    @inlinable @inline(__always)
    func decode<P: ManagedObjectConvertible>(_ stored: StoredValue, into object: inout P) -> Bool {
        if case .null = stored {
            return isOptional && writeNone(into: &object)
        }
        switch kind {
        case .general:
            return false
        case .bool:
            guard case .bool(let value) = stored else { return false }
            write(value, into: &object)
        case .int:
            guard case .integer(let whole) = stored, let value = Int(exactly: whole) else { return false }
            write(value, into: &object)
        case .int16:
            guard case .integer(let whole) = stored, let value = Int16(exactly: whole) else { return false }
            write(value, into: &object)
        case .int32:
            guard case .integer(let whole) = stored, let value = Int32(exactly: whole) else { return false }
            write(value, into: &object)
        case .int64:
            guard case .integer(let value) = stored else { return false }
            write(value, into: &object)
        case .float:
            // Float storage: a Float widened to Double; one out of Float's range is the decoder's error.
            guard case .double(let double) = stored else { return false }
            let value = Float(double)
            guard value.isFinite || !double.isFinite else { return false }
            write(value, into: &object)
        case .double:
            guard case .double(let value) = stored else { return false }
            write(value, into: &object)
        case .decimal:
            guard case .decimal(let value) = stored else { return false }
            write(value, into: &object)
        case .date:
            guard case .date(let seconds) = stored else { return false }
            write(Date(timeIntervalSinceReferenceDate: seconds), into: &object)
        case .string:
            guard case .string(let value) = stored else { return false }
            write(value, into: &object)
        case .data:
            guard case .data(let value) = stored else { return false }
            write(value, into: &object)
        case .uuid:
            guard case .uuid(let value) = stored else { return false }
            write(value, into: &object)
        case .url:
            guard case .uri(let value) = stored else { return false }
            write(value, into: &object)
        }
        return true
    }

    /// Sets the optional property to `nil`.
    @inlinable
    func writeNone<P: ManagedObjectConvertible>(into object: inout P) -> Bool {
        switch kind {
        case .general: return false
        case .bool: assign(Bool?.none, in: &object)
        case .int: assign(Int?.none, in: &object)
        case .int16: assign(Int16?.none, in: &object)
        case .int32: assign(Int32?.none, in: &object)
        case .int64: assign(Int64?.none, in: &object)
        case .float: assign(Float?.none, in: &object)
        case .double: assign(Double?.none, in: &object)
        case .decimal: assign(Decimal?.none, in: &object)
        case .date: assign(Date?.none, in: &object)
        case .string: assign(String?.none, in: &object)
        case .data: assign(Data?.none, in: &object)
        case .uuid: assign(UUID?.none, in: &object)
        case .url: assign(URL?.none, in: &object)
        }
        return true
    }

    /// Sets the property (of type `Value`, or `Value?`) to `value`.
    @inlinable @inline(__always)
    func write<Value, P: ManagedObjectConvertible>(_ value: Value, into object: inout P) {
        if isOptional {
            assign(Optional(value), in: &object)
        } else {
            assign(value, in: &object)
        }
    }

    /// Assigns the property (of type `Value`) at ``offset`` of `object`: ``offset`` comes from the
    /// writable key path of a property of exactly that type (see `Attribute.write(_:at:in:)`).
    @inlinable @inline(__always)
    func assign<Value, P: ManagedObjectConvertible>(_ value: Value, in object: inout P) {
        Attribute<P>.write(value, at: offset, in: &object)
    }
}
